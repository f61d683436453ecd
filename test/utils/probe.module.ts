import { Body, Get, Module, Post } from '@nestjs/common';
import { ApiCreatedResponse } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsString, Max, Min, ValidateNested } from 'class-validator';
import { DataSource } from 'typeorm';
import { ServiceError } from '../../src/common/errors';
import { SvcController } from '../../src/common/access/svc-controller';
import { Public } from '../../src/common/access/public.decorator';
import { SVC_CONNECTION } from '../../src/config/svc-options';

class AddressDto {
  @IsString()
  city!: string;
}

class EchoDto {
  @IsEmail()
  email!: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;

  @ValidateNested()
  @Type(() => AddressDto)
  address!: AddressDto;
}

/** Test-only routes that make each failure path of the error filter happen through real HTTP. */
@SvcController('__probe')
class ProbeController {
  constructor(@InjectDataSource(SVC_CONNECTION) private readonly db: DataSource) {}

  @Post('echo')
  @Public()
  @ApiCreatedResponse({ schema: { type: 'object', properties: { received: { type: 'object' } } } })
  echo(@Body() body: EchoDto) {
    return { received: body };
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('secret internal detail: stack and all');
  }

  @Get('sql')
  @Public()
  async sql() {
    return this.db.query('SELECT * FROM table_that_does_not_exist WHERE password = $1', ['hunter2']);
  }

  @Get('limited')
  @Public()
  limited(): never {
    throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfterSeconds: 42 });
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
