import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, SelfKeyOnly, SESSION_COOKIE } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ApiEmptyObjectResponse, type EmptyObject } from '../http/empty-object.js';
import { Description } from '../http/envelope.js';
import type { ApiRequest } from '../http/request.js';
import { RateLimit } from '../http/rate-limit/rate-limit.decorator.js';
import { toUserDocument, UserDocument } from '../presenters/user.presenter.js';
import { AuthService } from './auth.service.js';
import { CaptchaService } from './captcha.service.js';
import { CodeDto, ForgotPasswordDto, LoginDto, RegisterDto, ResetPasswordDto } from './dto/auth.dto.js';
import { LoginResponse } from './dto/auth.responses.js';
import { LocalAuthGuard } from './local-auth.guard.js';
import { endSession, startSession } from './start-session.js';
import { ApiErrors } from '../http/openapi-errors.js';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly captcha: CaptchaService,
  ) {}

  @Post('login')
  @HttpCode(200)
  @RateLimit('login')
  @UseGuards(LocalAuthGuard)
  @Description('Logged in.')
  @ApiOkResponse({ type: LoginResponse, description: 'Set-Cookie carries the session cookie.' })
  async login(@Req() req: ApiRequest & { user: UserRow }, @Body() _dto: LoginDto): Promise<LoginResponse> {
    await startSession(req, req.user.id);
    return { userID: req.user.id };
  }

  @Post('register')
  @ApiErrors(409)
  @HttpCode(200)
  @RateLimit('register')
  @Description('Registered and logged in.')
  @ApiOkResponse({ type: UserDocument, description: 'The new user, logged in.' })
  async register(@Req() req: ApiRequest, @Body() dto: RegisterDto): Promise<UserDocument> {
    await this.captcha.verify(dto.captcha, req.ip);
    const user = await this.auth.register(dto);
    await startSession(req, user.id);
    return toUserDocument(user);
  }

  @Post('verify-email')
  @HttpCode(200)
  @RateLimit('verify-email')
  @ApiEmptyObjectResponse()
  async verifyEmail(@Body() dto: CodeDto): Promise<EmptyObject> {
    await this.auth.verifyEmail(dto.code);
    return {};
  }

  @Post('resend-verify-email')
  @ApiErrors(409)
  @HttpCode(200)
  @SelfKeyOnly()
  @RateLimit('resend-verify-email')
  @ApiEmptyObjectResponse()
  async resendVerifyEmail(@CurrentUser() user: UserRow): Promise<EmptyObject> {
    await this.auth.resendVerifyEmail(user);
    return {};
  }

  /** Idempotent: logging out without a session is not an error. */
  @Post('logout')
  @HttpCode(200)
  @ApiEmptyObjectResponse()
  async logout(@Req() req: ApiRequest, @Res({ passthrough: true }) res: Response): Promise<EmptyObject> {
    await endSession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return {};
  }

  @Post('forgot-password')
  @HttpCode(202)
  @RateLimit('forgot-password')
  @ApiEmptyObjectResponse(202, 'Always 202 with the Empty Object, whether or not the email belongs to an account.')
  @Description('If that email belongs to an account, a reset code has been sent to it.')
  forgotPassword(@Req() req: ApiRequest, @Body() dto: ForgotPasswordDto): EmptyObject {
    this.auth.forgotPassword(dto.email, req.ip);
    return {};
  }

  @Post('reset-password')
  @HttpCode(200)
  @RateLimit('reset-password')
  @ApiEmptyObjectResponse()
  async resetPassword(@Body() dto: ResetPasswordDto): Promise<EmptyObject> {
    await this.auth.resetPassword(dto.code, dto['!password']);
    return {};
  }
}
