import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';

/** The .proto files of MYT's services (written from the wire facts in from-api.md §1.5), beside this file. */
const PROTO_DIR = fileURLToPath(new URL('./proto/', import.meta.url));
const PROTO_FILES = ['cards.proto', 'chunithm.proto', 'maimai.proto', 'ongeki.proto', 'wacca.proto'];

/**
 * How messages are read: field names as the .proto writes them (snake_case), enums as their names
 * (an enum number the .proto does not know stays a number), 64-bit integers as strings, and every
 * field present (a missing message field is null), so a stream item is plain JSON.
 */
const LOADER_OPTIONS: protoLoader.Options = { keepCase: true, enums: String, longs: String, defaults: true, oneofs: true, includeDirs: [PROTO_DIR] };

/** The services MYT speaks, by full name. */
export type MytServiceName =
  'mythos.cards.v0.Cards' | 'mythos.chunithm.v0.ChunithmUser' | 'mythos.maimai.v0.MaimaiUser' | 'mythos.ongeki.v0.OngekiUser' | 'mythos.wacca.v0.WaccaUser';

let loaded: grpc.GrpcObject | undefined;

/** A service's client constructor (its `.service` is the definition a server adds). Loaded once, on first use. */
export function mytService(name: MytServiceName): grpc.ServiceClientConstructor {
  loaded ??= grpc.loadPackageDefinition(protoLoader.loadSync(PROTO_FILES, LOADER_OPTIONS));
  let node: unknown = loaded;
  for (const part of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'function') throw new Error(`MYT service ${name} is not in the .proto files`);
  return node as grpc.ServiceClientConstructor;
}
