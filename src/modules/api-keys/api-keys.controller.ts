import { Body, Delete, Get, Header, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { IdPipe } from '../../common/id.pipe';
import { parseListQuery } from '../../common/pagination';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CookieOnly, CurrentAuth } from '../../common/access/auth.decorators';
import { AccountsService } from '../accounts/accounts.service';
import { ApiKeysService } from './api-keys.service';
import type { ApiKeySortField } from './api-keys.types';
import { CreateApiKeyDto, RotateApiKeyDto, UpdateApiKeyDto } from './dto/api-key.dto';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiListQuery, itemAnswer, listOf, STRING } from '../../common/api-schema';
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
  constructor(
    private readonly keys: ApiKeysService,
    private readonly accounts: AccountsService,
  ) {}

  @Get()
  @ApiOkResponse({ schema: listOf(API_KEY) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
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
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateApiKeyDto, @Req() req: Request) {
    await this.accounts.assertRecentSignIn(auth);
    const { item, key } = await this.keys.create(auth, dto, req.ip ?? null);
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
  async revoke(@CurrentAuth() auth: AuthContext, @Param('id', KEY_ID) id: string, @Req() req: Request) {
    return { message: 'API key revoked', item: await this.keys.revoke(auth, id, req.ip ?? null) };
  }

  /** A new value for the key; the old one works for `graceSeconds` more (CONTRACTS 14.4). */
  @Post(':id/rotate')
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({
    description: 'The new key is in `key`, shown this once',
    schema: itemAnswer(API_KEY, { key: STRING }),
  })
  async rotate(
    @CurrentAuth() auth: AuthContext,
    @Param('id', KEY_ID) id: string,
    @Body() dto: RotateApiKeyDto,
    @Req() req: Request,
  ) {
    await this.accounts.assertRecentSignIn(auth);
    const { item, key } = await this.keys.rotate(auth, id, dto.graceSeconds ?? 0, req.ip ?? null);
    const grace = dto.graceSeconds ? `; the old one works for ${dto.graceSeconds} s more` : '';
    return { message: `API key rotated; copy the new key now, it is not shown again${grace}`, item, key };
  }
}
