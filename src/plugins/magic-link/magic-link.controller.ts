import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MESSAGE_ANSWER, ServiceError, STRING, type PluginContext } from '../api';
import { MAGIC_LINK_REQUEST } from './magic-link.openapi';
import { MAGIC_LINK_CONTEXT, MAGIC_LINK_OPTIONS, type ResolvedMagicLinkOptions } from './magic-link.options';
import { MagicLinkStore, TOKEN_PATTERN } from './magic-link.store';

/** The built-in email template (seeded by the core's MagicLinkTemplate migration). */
export const MAGIC_LINK_TEMPLATE = 'magic-link';
/** The strategy `completeLogin` records in the audit rows. */
export const MAGIC_LINK_STRATEGY = 'magic-link:email';
/** Where a link that cannot sign in leads (the core's `completeLogin` refusal page). */
export const SIGN_IN_FAILED = '/admin/login?error=signin-failed';
/**
 * `POST request` answers no sooner than this after the handler started, whatever the address:
 * the same floor as the core's `/auth/forgot-password` (ACCOUNT_ANSWER_FLOOR_MS). The work it
 * hides (one lookup, then for an account that may sign in one INSERT) takes a few milliseconds;
 * the email goes after the answer.
 */
export const REQUEST_FLOOR_MS = 600;
/** The one answer of `POST request`. */
export const REQUEST_ANSWER = 'If an account may sign in with this address, a sign-in link is on its way';

const MAX_EMAIL = 320;
const MAX_NEXT = 2048;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `{ email, next? }`, checked as the core's `EmailOnlyDto` checks an address (trimmed, 1-320). */
function readRequest(body: unknown): { email: string; next: string | null } {
  const issues: Array<{ path: string; code: string; message: string }> = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw ServiceError.validation([{ path: 'email', code: 'isString', message: 'email must be a string' }]);
  }
  const { email, next, ...rest } = body as Record<string, unknown>;
  for (const key of Object.keys(rest)) {
    issues.push({ path: key, code: 'unknown_field', message: `property ${key} should not exist` });
  }
  const address = typeof email === 'string' ? email.trim() : '';
  if (typeof email !== 'string') {
    issues.push({ path: 'email', code: 'isString', message: 'email must be a string' });
  } else if (!address) {
    issues.push({ path: 'email', code: 'isNotEmpty', message: 'email should not be empty' });
  } else if (address.length > MAX_EMAIL) {
    issues.push({
      path: 'email',
      code: 'maxLength',
      message: `email must be at most ${MAX_EMAIL} characters`,
    });
  }
  if (next !== undefined && next !== null && typeof next !== 'string') {
    issues.push({ path: 'next', code: 'isString', message: 'next must be a string' });
  } else if (typeof next === 'string' && next.length > MAX_NEXT) {
    issues.push({ path: 'next', code: 'maxLength', message: `next must be at most ${MAX_NEXT} characters` });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return { email: address, next: typeof next === 'string' && next !== '' ? next : null };
}

/** Mounted under `/admin/api/plugins/magic-link/` (CONTRACTS 14.5). */
@Controller()
export class MagicLinkController {
  private readonly store: MagicLinkStore;

  constructor(
    @Inject(MAGIC_LINK_CONTEXT) private readonly ctx: PluginContext,
    @Inject(MAGIC_LINK_OPTIONS) private readonly options: ResolvedMagicLinkOptions,
  ) {
    this.store = new MagicLinkStore(ctx.db);
  }

  /**
   * Always the same answer, after the same floor: a link is issued (and emailed once the answer
   * is out) only for an account that may sign in. Draws on the core's per-IP sign-in budget.
   */
  @Post('request')
  @HttpCode(200)
  @ApiBody({ schema: MAGIC_LINK_REQUEST })
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async request(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: unknown,
  ): Promise<{ message: string }> {
    await this.ctx.limits.consumeSignIn(req, res);
    res.setHeader('Cache-Control', 'no-store');
    const input = readRequest(body);
    const started = performance.now();
    let mail: { to: string; name: string; token: string } | null = null;
    try {
      const account = await this.ctx.users.findByEmail(input.email);
      const stamp = account && this.maySignIn(account) ? await this.ctx.auth.accountStamp(account.id) : null;
      if (account && stamp !== null) {
        const token = await this.store.issue(account.id, input.next, this.options.ttlMinutes, stamp);
        mail = { to: account.email, name: account.name, token };
      }
    } catch (e) {
      // Answered like any other address: an error here must not tell that the address exists.
      this.ctx.logger.error({ err: { message: (e as Error).message } }, 'magic link not issued');
    }
    const wait = started + REQUEST_FLOOR_MS - performance.now();
    if (wait > 0) {
      await sleep(wait);
    }
    // The email and the clean-up go once the answer is out, so neither can be timed.
    res.once('close', () => {
      if (mail) {
        void this.send(mail);
      }
      this.store
        .prune()
        .catch((e: Error) => this.ctx.logger.warn({ err: { message: e.message } }, 'prune failed'));
    });
    return { message: REQUEST_ANSWER };
  }

  /**
   * The emailed link: the token is used up (one UPDATE), then `completeLogin` decides (the
   * account gate, hooks, a second factor). Every outcome is a 302.
   */
  @Get('verify')
  @ApiQuery({ name: 'token', required: true, schema: STRING, description: 'The token of the emailed link' })
  @ApiResponse({
    status: 302,
    description:
      '`completeLogin`: signed in, to the `next` of the request (a same-origin path, else `/admin`); a second factor, to `/admin/login?resume=1`; an unknown, used or expired link or a refused account, to `/admin/login?error=signin-failed`',
  })
  async verify(@Req() req: Request, @Res() res: Response, @Query('token') token: unknown): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (req.method === 'HEAD') {
      // Express answers HEAD with the GET route: a link checker's HEAD must not use the link up.
      res.status(204).end();
      return;
    }
    const used =
      typeof token === 'string' && TOKEN_PATTERN.test(token) ? await this.store.consume(token) : null;
    if (!used) {
      res.redirect(302, SIGN_IN_FAILED);
      return;
    }
    // An email link is one factor: completeLogin asks the second one of a user who has it.
    await this.ctx.auth.completeLogin(used.userId, {
      request: req,
      response: res,
      strategy: MAGIC_LINK_STRATEGY,
      next: used.next ?? undefined,
      // A password write, a deactivation or the end of all sessions since the link was sent voids it.
      accountStamp: used.accountStamp ?? '',
    });
  }

  /**
   * The account gate the plugin can see (`ctx.users.findByEmail`): active, and verified when
   * `auth.requireEmailVerification`. A locked account (password lockout) gets its link too;
   * `completeLogin` refuses it while the lock lasts.
   */
  private maySignIn(account: { isActive: boolean; emailVerified: boolean }): boolean {
    return account.isActive && (account.emailVerified || !this.ctx.config.auth.requireEmailVerification);
  }

  private async send(mail: { to: string; name: string; token: string }): Promise<void> {
    const link = `${this.ctx.publicUrl}/admin/api/plugins/${this.ctx.slug}/verify?token=${mail.token}`;
    try {
      await this.ctx.email.sendTemplate({
        to: mail.to,
        template: MAGIC_LINK_TEMPLATE,
        variables: { name: mail.name, link, minutes: String(this.options.ttlMinutes) },
      });
    } catch (e) {
      // Never the link: it signs in.
      this.ctx.logger.warn(
        { err: { code: (e as { code?: unknown }).code, message: (e as Error).message } },
        'magic link email not sent',
      );
    }
  }
}
