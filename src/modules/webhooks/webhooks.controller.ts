import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { RequirePermission } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { IdPipe } from '../../common/id.pipe';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import {
  WEBHOOK,
  WEBHOOK_CREATED,
  WEBHOOK_DELIVERY,
  WEBHOOK_DELIVERY_DETAIL,
  WEBHOOK_REPLAY_QUEUED,
  WEBHOOK_SECRET_ROTATED,
  WEBHOOK_TEST_QUEUED,
} from './webhooks.openapi';
import { DELIVERY_STATUSES, SORTABLE, WebhooksService } from './webhooks.service';
import { WEBHOOK_EVENTS } from './webhooks.types';

const WebhookId = () => Param('id', new IdPipe('webhook'));
const DeliveryId = () => Param('deliveryId', new IdPipe('delivery'));

/** `/admin/api/webhooks`: endpoints, their secrets, test events, deliveries and replays. */
@SvcController('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @RequirePermission('read-webhooks')
  @ApiOkResponse({ schema: listOf(WEBHOOK) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@Query() query: Record<string, unknown>) {
    return this.webhooks.list(query);
  }

  @Post()
  @RequirePermission('create-webhooks')
  @ApiCreatedResponse({ schema: WEBHOOK_CREATED })
  async create(@Body() dto: CreateWebhookDto) {
    const { item, secret } = await this.webhooks.create(dto);
    return { message: 'Webhook created', item, secret };
  }

  @Get(':id')
  @RequirePermission('read-webhooks')
  @ApiOkResponse({ schema: WEBHOOK })
  get(@WebhookId() id: string) {
    return this.webhooks.get(id);
  }

  @Patch(':id')
  @RequirePermission('update-webhooks')
  @ApiOkResponse({ schema: itemAnswer(WEBHOOK) })
  async update(@WebhookId() id: string, @Body() dto: UpdateWebhookDto) {
    return { message: 'Webhook updated', item: await this.webhooks.update(id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-webhooks')
  @ApiOkResponse({ schema: itemAnswer(WEBHOOK) })
  async remove(@WebhookId() id: string) {
    return { message: 'Webhook deleted', item: await this.webhooks.delete(id) };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequirePermission('update-webhooks')
  @ApiOkResponse({ schema: WEBHOOK_SECRET_ROTATED })
  async rotateSecret(@WebhookId() id: string) {
    return { message: 'Webhook secret rotated', secret: await this.webhooks.rotateSecret(id) };
  }

  @Post(':id/test')
  @HttpCode(202)
  @RequirePermission('update-webhooks')
  @ApiAcceptedResponse({ schema: WEBHOOK_TEST_QUEUED })
  async test(@WebhookId() id: string) {
    return { message: 'Test event queued', eventId: await this.webhooks.sendTest(id) };
  }

  @Get(':id/deliveries')
  @RequirePermission('read-webhooks')
  @ApiOkResponse({ schema: listOf(WEBHOOK_DELIVERY) })
  @ApiListQuery({
    sortable: [],
    extra: [
      {
        name: 'status',
        description: 'Only deliveries in this state',
        schema: { type: 'string', enum: [...DELIVERY_STATUSES] },
      },
      {
        name: 'event',
        description: 'Only deliveries of this event type (several: comma-separated)',
        schema: { type: 'string', enum: [...WEBHOOK_EVENTS] },
      },
    ],
  })
  listDeliveries(@WebhookId() id: string, @Query() query: Record<string, unknown>) {
    return this.webhooks.listDeliveries(id, query);
  }

  @Get(':id/deliveries/:deliveryId')
  @RequirePermission('read-webhooks')
  @ApiOkResponse({ schema: WEBHOOK_DELIVERY_DETAIL })
  getDelivery(@WebhookId() id: string, @DeliveryId() deliveryId: string) {
    return this.webhooks.getDelivery(id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/replay')
  @HttpCode(202)
  @RequirePermission('update-webhooks')
  @ApiAcceptedResponse({ schema: WEBHOOK_REPLAY_QUEUED })
  async replay(@WebhookId() id: string, @DeliveryId() deliveryId: string) {
    return { message: 'Delivery queued again', deliveryId: await this.webhooks.replay(id, deliveryId) };
  }
}
