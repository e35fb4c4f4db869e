import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { SERVER_VERSION } from '../status/version.js';
import { API_LINKS } from './home-page.js';

export class ApiIndexResponse {
  @ApiProperty({ example: 'Score Tracker' })
  name!: string;

  @ApiProperty({ example: '0.1.0' })
  version!: string;

  @ApiProperty({ description: 'Where to start: the interactive API docs, the OpenAPI document, the status route and the OAuth2 authorization page.' })
  links!: typeof API_LINKS;
}

@ApiTags('status')
@Controller()
export class ApiIndexController {
  /** GET /api/v1: what this is and where to go, instead of a 404 at the address the server prints at start. */
  @Get()
  @ApiOperation({ summary: "The API's index: its name, version and the links to start from." })
  @ApiOkResponse({ type: ApiIndexResponse })
  index(): ApiIndexResponse {
    return { name: 'Score Tracker', version: SERVER_VERSION, links: API_LINKS };
  }
}
