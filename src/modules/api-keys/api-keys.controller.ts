import { Body, Delete, Get, Header, Param, Patch, Post, Query } from '@nestjs/common';
import { IdPipe } from '../../common/id.pipe';
import { parseListQuery } from '../../common/pagination';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CookieOnly, CurrentAuth } from '../../common/access/auth.decorators';
import { ApiKeysService } from './api-keys.service';
import type { ApiKeySortField } from './api-keys.types';
import { CreateApiKeyDto, UpdateApiKeyDto } from './dto/api-key.dto';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { itemAnswer, listOf, STRING } from '../../common/api-schema';
import { API_KEY } from './api-keys.openapi';

const KEY_ID = new IdPipe('API key');
const SORTABLE: readonly ApiKeySortField[] = ['name', 'createdAt', 'lastUsedAt', 'expiresAt'];

/**
 * `/admin/api/api-keys`: the signed-in user's own keys, browser session only (SPEC 4.2 note 1):
 * a Bearer credential of any kind is refused, so a stolen key or token cannot mint keys.
 */
@SvcController('api-keys')
@CookieOnly()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOkResponse({ schema: listOf(API_KEY) })
  list(@CurrentAuth() auth: AuthContext, @Query() query: Record<string, unknown>) {
    return this.keys.list(
      auth,
      parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'createdAt', direction: 'desc' } }),
    );
  }

  /** The only answer that holds the key: never stored by a cache. */
  @Post()
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({
    description: 'The key itself is in `key`, shown this once',
    schema: itemAnswer(API_KEY, { key: STRING }),
  })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateApiKeyDto) {
    const { item, key } = await this.keys.create(auth, dto);
    return { message: 'API key created; copy it now, it is not shown again', item, key };
  }

  @Get(':id')
  @ApiOkResponse({ schema: API_KEY })
  get(@CurrentAuth() auth: AuthContext, @Param('id', KEY_ID) id: string) {
    return this.keys.get(auth, id);
  }

  @Patch(':id')
  @ApiOkResponse({ schema: itemAnswer(API_KEY) })
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('id', KEY_ID) id: string,
    @Body() dto: UpdateApiKeyDto,
  ) {
    return { message: 'API key updated', item: await this.keys.update(auth, id, dto) };
  }

  @Delete(':id')
  @ApiOkResponse({ schema: itemAnswer(API_KEY) })
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id', KEY_ID) id: string) {
    return { message: 'API key revoked', item: await this.keys.revoke(auth, id) };
  }
}
