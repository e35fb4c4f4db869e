import { BadRequestException, Body, Controller, Delete, Get, HttpCode, HttpException, NotFoundException, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config.js';
import { OwnerOnly, RequirePermissions, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { ApiErrors } from '../http/openapi-errors.js';
import { FervidexSettingsDocument, KshookSv6cSettingsDocument, PatchFervidexSettingsDto, PatchKshookSv6cSettingsDto } from './dto/hook-settings.dto.js';
import { CgCardDto, IntegrationLinkDocument, MytCardDto, OAuth2CallbackDto } from './dto/links.dto.js';
import { FROM_API_USER_AGENT } from './from-api/from-api.service.js';
import { FromApiError, type IntegrationService } from './from-api/source.js';
import { HookSettingsService } from './hook-settings.service.js';
import { exchangeCode, type KaiService } from './kai/kai-client.js';
import { IntegrationLinksService } from './links.service.js';

function kaiService(value: string): KaiService {
  const service = value.toLowerCase();
  if (service !== 'flo' && service !== 'eag' && service !== 'min')
    throw new BadRequestException(`Unknown KAI service '${value.slice(0, 20)}': expected flo, eag or min.`);
  return service;
}

function cgService(value: string): IntegrationService {
  const service = value.toLowerCase();
  if (service !== 'dev' && service !== 'nag' && service !== 'gan')
    throw new NotFoundException(`Unknown CG service '${value.slice(0, 20)}': expected dev, nag or gan.`);
  return `cg-${service}`;
}

/**
 * A user's links to other services and the score hooks' settings (Tachi's `/users/:userID/integrations/…`):
 * the user's own only. Links need customise_profile of an API key; the hooks' settings a session.
 */
@ApiTags('users')
@Controller('users/:userID/integrations')
export class IntegrationsController {
  constructor(
    private readonly settings: HookSettingsService,
    private readonly links: IntegrationLinksService,
    private readonly config: AppConfig,
  ) {}

  @Get('kai/:kaiType')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiParam({ name: 'kaiType', enum: ['flo', 'eag', 'min'], description: 'The e-amusement network: FLO, EAG or MIN.' })
  @ApiErrors(400, 404)
  @ApiOperation({ summary: 'Whether the user has linked this KAI network (authStatus); never its tokens.' })
  @ApiOkResponse({ type: IntegrationLinkDocument })
  kaiStatus(@TargetUser() user: UserRow, @Param('kaiType') kaiType: string): Promise<IntegrationLinkDocument> {
    const service = kaiService(kaiType);
    this.links.assertConfigured(service);
    return this.links.status(user.id, service);
  }

  @Delete('kai/:kaiType')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiParam({ name: 'kaiType', enum: ['flo', 'eag', 'min'], description: 'The e-amusement network: FLO, EAG or MIN.' })
  @ApiErrors(400, 404, 409)
  @ApiOperation({ summary: 'Unlinks the KAI network: its tokens and sync state are deleted. 409 when not linked.' })
  @ApiOkResponse({ schema: { type: 'object' } })
  async kaiUnlink(@TargetUser() user: UserRow, @Param('kaiType') kaiType: string): Promise<Record<string, never>> {
    const service = kaiService(kaiType);
    this.links.assertConfigured(service);
    await this.links.unlink(user.id, service);
    return {};
  }

  @Post('kai/:kaiType/oauth2callback')
  @HttpCode(200)
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiParam({ name: 'kaiType', enum: ['flo', 'eag', 'min'], description: 'The e-amusement network: FLO, EAG or MIN.' })
  @ApiErrors(400, 404, 502, 504)
  @ApiOperation({ summary: "Links the KAI network: exchanges the OAuth2 code the network's page sent back for the user's tokens (stored encrypted)." })
  @ApiOkResponse({ type: IntegrationLinkDocument })
  async kaiCallback(@TargetUser() user: UserRow, @Param('kaiType') kaiType: string, @Body() dto: OAuth2CallbackDto): Promise<IntegrationLinkDocument> {
    const service = kaiService(kaiType);
    this.links.assertConfigured(service);
    const options = {
      signal: AbortSignal.timeout(this.config.FROM_API_REQUEST_TIMEOUT_MS),
      requestTimeoutMs: this.config.FROM_API_REQUEST_TIMEOUT_MS,
      userAgent: FROM_API_USER_AGENT,
    };
    let tokens;
    try {
      tokens = await exchangeCode(service, this.config.kai(service)!, dto.code, options);
    } catch (err) {
      if (err instanceof FromApiError) throw new HttpException(err.message, err.status);
      throw err;
    }
    return this.links.link(user.id, service, tokens);
  }

  @Get('cg/:cgType')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiParam({ name: 'cgType', enum: ['dev', 'nag', 'gan'], description: 'The CG network: dev, nag or gan.' })
  @ApiErrors(404)
  @ApiOperation({ summary: 'Whether the user has linked a card on this CG service, and its card id; never its PIN.' })
  @ApiOkResponse({ type: IntegrationLinkDocument })
  cgStatus(@TargetUser() user: UserRow, @Param('cgType') cgType: string): Promise<IntegrationLinkDocument> {
    const service = cgService(cgType);
    this.links.assertConfigured(service);
    return this.links.status(user.id, service);
  }

  @Put('cg/:cgType')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiParam({ name: 'cgType', enum: ['dev', 'nag', 'gan'], description: 'The CG network: dev, nag or gan.' })
  @ApiErrors(400, 404)
  @ApiOperation({ summary: 'Links (or replaces) the card used on this CG service; the PIN is stored encrypted.' })
  @ApiOkResponse({ type: IntegrationLinkDocument })
  cgLink(@TargetUser() user: UserRow, @Param('cgType') cgType: string, @Body() dto: CgCardDto): Promise<IntegrationLinkDocument> {
    const service = cgService(cgType);
    this.links.assertConfigured(service);
    return this.links.link(user.id, service, { cardID: dto.cardID, pin: dto.pin }, { cardID: dto.cardID });
  }

  @Delete('cg/:cgType')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiParam({ name: 'cgType', enum: ['dev', 'nag', 'gan'], description: 'The CG network: dev, nag or gan.' })
  @ApiErrors(404, 409)
  @ApiOperation({ summary: 'Unlinks the card from this CG service (its PIN and sync state are deleted). 409 when not linked.' })
  @ApiOkResponse({ schema: { type: 'object' } })
  async cgUnlink(@TargetUser() user: UserRow, @Param('cgType') cgType: string): Promise<Record<string, never>> {
    const service = cgService(cgType);
    this.links.assertConfigured(service);
    await this.links.unlink(user.id, service);
    return {};
  }

  @Get('myt')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiErrors(404)
  @ApiOperation({ summary: 'Whether the user has linked a MYT card; never its access code.' })
  @ApiOkResponse({ type: IntegrationLinkDocument })
  mytStatus(@TargetUser() user: UserRow): Promise<IntegrationLinkDocument> {
    this.links.assertConfigured('myt');
    return this.links.status(user.id, 'myt');
  }

  @Put('myt')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiErrors(400, 404)
  @ApiOperation({ summary: "Links (or replaces) the user's MYT card; its access code is stored encrypted." })
  @ApiOkResponse({ type: IntegrationLinkDocument })
  mytLink(@TargetUser() user: UserRow, @Body() dto: MytCardDto): Promise<IntegrationLinkDocument> {
    this.links.assertConfigured('myt');
    return this.links.link(user.id, 'myt', { cardAccessCode: dto.cardAccessCode });
  }

  @Delete('myt')
  @OwnerOnly()
  @RequirePermissions('customise_profile')
  @ApiErrors(404, 409)
  @ApiOperation({ summary: 'Unlinks the MYT card (its access code and sync state are deleted). 409 when not linked.' })
  @ApiOkResponse({ schema: { type: 'object' } })
  async mytUnlink(@TargetUser() user: UserRow): Promise<Record<string, never>> {
    this.links.assertConfigured('myt');
    await this.links.unlink(user.id, 'myt');
    return {};
  }

  @Get('fervidex/settings')
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: "The user's Fervidex settings: the card filter and forceStaticImport." })
  @ApiOkResponse({ type: FervidexSettingsDocument })
  fervidex(@TargetUser() user: UserRow): Promise<FervidexSettingsDocument> {
    return this.settings.fervidex(user.id);
  }

  @Patch('fervidex/settings')
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: 'Sets the given Fervidex settings; absent ones are unchanged. An empty card list is stored as null (every card).' })
  @ApiOkResponse({ type: FervidexSettingsDocument })
  patchFervidex(@TargetUser() user: UserRow, @Body() dto: PatchFervidexSettingsDto): Promise<FervidexSettingsDocument> {
    return this.settings.patchFervidex(user.id, dto);
  }

  @Get('kshook-sv6c/settings')
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: "The user's kshook settings: forceStaticImport." })
  @ApiOkResponse({ type: KshookSv6cSettingsDocument })
  kshook(@TargetUser() user: UserRow): Promise<KshookSv6cSettingsDocument> {
    return this.settings.kshookSv6c(user.id);
  }

  @Patch('kshook-sv6c/settings')
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: 'Sets the given kshook settings; absent ones are unchanged.' })
  @ApiOkResponse({ type: KshookSv6cSettingsDocument })
  patchKshook(@TargetUser() user: UserRow, @Body() dto: PatchKshookSv6cSettingsDto): Promise<KshookSv6cSettingsDocument> {
    return this.settings.patchKshookSv6c(user.id, dto);
  }
}
