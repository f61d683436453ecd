import { Body, HttpCode, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Inject } from '@nestjs/common';
import { SvcController } from '../../common/access/svc-controller';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { AccountLifecycleService } from '../accounts/account-lifecycle.service';
import type { AuthContext } from '../../common/access/auth-context';
import { clientInfo } from './auth.controller';
import { AuthService } from './auth.service';
import { ReauthService } from './reauth.service';
import { clearSessionCookies } from './cookies';
import { CookieOnly, CurrentAuth } from '../../common/access/auth.decorators';
import { Public } from '../../common/access/public.decorator';
import {
  AcceptInviteDto,
  ChangePasswordDto,
  EmailOnlyDto,
  ReauthenticateDto,
  RegisterDto,
  ResetPasswordDto,
  TokenDto,
} from './dto/auth.dto';
import { AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { CsrfGuard } from './guards/csrf.guard';
import { ApiOkResponse } from '@nestjs/swagger';
import { DATE_TIME, MESSAGE_ANSWER, objectSchema, STRING } from '../../common/api-schema';
import { ServiceError } from '../../common/errors';

/** `/admin/api/auth/*` account routes: registration, verification, passwords, invitations. */
@SvcController('auth')
@UseGuards(CsrfGuard)
export class AccountController {
  private readonly secure: boolean;

  constructor(
    private readonly lifecycle: AccountLifecycleService,
    private readonly auth: AuthService,
    private readonly reauth: ReauthService,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.secure = options.publicUrl.startsWith('https:');
  }

  /** The same bytes, after the same floor, whether or not the address exists (unless revealRegistrationConflict). */
  @Post('register')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async register(@Body() dto: RegisterDto, @Req() req: Request) {
    await this.auth.register(dto, clientInfo(req));
    return {
      message: 'Check your inbox: if the address can be registered, a verification link is on its way',
    };
  }

  @Post('verify-email')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async verifyEmail(@Body() dto: TokenDto) {
    await this.lifecycle.verifyEmail(dto.token);
    return { message: 'Email address verified' };
  }

  @Post('verify-email/resend')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async resendVerification(@Body() dto: EmailOnlyDto) {
    await this.lifecycle.resendVerification(dto.email);
    return { message: 'If the address still needs verifying, a new link is on its way' };
  }

  @Post('forgot-password')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async forgotPassword(@Body() dto: EmailOnlyDto) {
    await this.lifecycle.forgotPassword(dto.email);
    return { message: 'If an account exists for this address, a reset link is on its way' };
  }

  @Post('reset-password')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async resetPassword(@Body() dto: ResetPasswordDto) {
    await this.lifecycle.resetPassword(dto.token, dto.password);
    return { message: 'Password reset; sign in with the new password' };
  }

  @Post('accept-invite')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async acceptInvite(@Body() dto: AcceptInviteDto) {
    await this.lifecycle.acceptInvite(dto.token, dto.password, dto.name);
    return { message: 'Invitation accepted; sign in with your new password' };
  }

  /** Ends every session of the account, this one included: the caller signs in again. */
  @Patch('change-password')
  @CookieOnly()
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async changePassword(
    @CurrentAuth() auth: AuthContext,
    @Body() dto: ChangePasswordDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.lifecycle.changePassword(auth.user.id, dto.currentPassword, dto.newPassword);
    clearSessionCookies(res, this.secure);
    return { message: 'Password changed; sign in again' };
  }

  /**
   * Proves the owner of this browser session again (the password, or a code of a second factor)
   * before a sensitive change: passkeys, TOTP, API keys, ending the other sessions.
   */
  @Post('reauthenticate')
  @CookieOnly()
  @HttpCode(200)
  @ApiOkResponse({ schema: objectSchema({ message: STRING, until: DATE_TIME }) })
  async reauthenticate(
    @CurrentAuth() auth: AuthContext,
    @Body() dto: ReauthenticateDto,
    @Req() req: Request,
  ) {
    if (dto.password !== undefined && dto.code !== undefined) {
      throw ServiceError.validation([
        { path: 'code', code: 'exclusive', message: 'Send the password or a code, not both' },
      ]);
    }
    const { until } = await this.reauth.reauthenticate(auth, dto, { ip: req.ip ?? null });
    return { message: 'Confirmed; you can make sensitive changes for a while', until: until.toISOString() };
  }
}
