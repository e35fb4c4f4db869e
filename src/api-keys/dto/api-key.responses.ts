import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiKeyDocument } from '../../presenters/api-key.presenter.js';

/** A key issued for an API client: with the client's key file filled in. */
export class IssuedApiKeyResponse extends ApiKeyDocument {
  @ApiPropertyOptional({ description: "The client's apiKeyFormat with the token in it (the bare token without a format). Only with clientID." })
  apiKeyFile?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Only with clientID.' }) apiKeyFilename?: string | null;
}
