import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '../../common/permissions.js';
import { ClientDocument } from '../../presenters/client.presenter.js';

/** The list names requestedPermissions also `requestPermissions`, as the spec's list does. */
export class ListedClientDocument extends ClientDocument {
  @ApiProperty({ enum: PERMISSIONS, isArray: true }) requestPermissions!: Permission[];
}
