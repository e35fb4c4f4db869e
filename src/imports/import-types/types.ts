import type { ChartInfo, GptSupport } from '../../game-support/types.js';

/** What every score of an import shares besides its GPT. Stored with orphans, so plain data. */
export interface ImportContext {
  /** Where the scores come from (a score's `service`). */
  service: string;
  /** The game version the scores were played on; null when the import does not say. */
  version: string | null;
}

/** An import's input, checked as a whole: its GPT, context, provided classes and raw items. */
export interface ParsedImport<Item = unknown> {
  gpt: GptSupport;
  context: ImportContext;
  /** Provided classes (e.g. a dan) of the import's GPT, by class set id. */
  classes: Record<string, string>;
  /** Provided classes of the game's other playtypes (a profile dump with an SP and a DP dan), by playtype, then class set id. */
  playtypeClasses?: Readonly<Record<string, Record<string, string>>>;
  /**
   * true for a class update the game reports directly (a cleared dan course: Tachi's UpdateClassIfGreater):
   * its classes create the profile of a GPT the user never played. Otherwise (an import's provided
   * classes, as Tachi) classes alone raise the classes of an existing profile and store nothing else.
   */
  classesCreateProfile?: boolean;
  /** The items as the format carries them (score elements, CSV rows, hook payload entries); each is converted on its own. */
  items: Item[];
}

/** What an import request carries; each import type reads the parts it uses. */
export interface ImportRequest {
  /** The uploaded file (`scoreData`) of a file/ import. */
  file?: Buffer;
  /** The uploaded file's name, as the client sent it. */
  filename?: string;
  /** The multipart form fields of a file/ import, other than importType. */
  fields: Readonly<Record<string, unknown>>;
  /** The JSON body of an ir/ import. */
  body?: unknown;
}

/**
 * One raw item converted: a batch-manual score element (spec part 2) for the shared validation,
 * chart matching and pipeline; a per-score error reported in the ImportDocument's `errors`; or a
 * silent skip (an item the format sends but that is no score to keep).
 */
export type ConvertedItem =
  | {
      kind: 'score';
      element: unknown;
      /**
       * For files that mix them (S3 and MER hold SP and DP, S3 several styles): this score's playtype
       * (of the parsed import's game) and version, when they differ from the parsed import's. One
       * import then writes a batch per playtype and version, in its one transaction.
       */
      playtype?: string;
      version?: string | null;
      /**
       * The player marked this play (Fervidex's `highlight`): its score is stored highlighted, and a
       * re-send of a stored score highlights that score.
       */
      highlight?: boolean;
    }
  | { kind: 'error'; message: string }
  | {
      kind: 'skip';
      /** Why, for an import whose every item was skipped ("a BEGINNER chart"); said as "N plays <reason>". */
      reason?: string;
    };

/**
 * An import type: how one format becomes score elements. Register it in `registry.ts`; the
 * pipeline, the queue, dedupe, orphans, sessions, PBs and ratings are shared by every type.
 */
export interface ImportType<Item = unknown> {
  /** The importType clients send and ImportDocuments report, e.g. 'file/batch-manual'. */
  readonly name: `file/${string}` | `ir/${string}` | `api/${string}`;
  /**
   * false when the format's times are not each play's own (a CSV's per-song "last played", which an
   * export re-stamps; a hook's receive time): score and orphan ids then leave the time out, so an
   * identical result on the same chart sent again is a re-send, not a new play. Default true.
   */
  readonly timesIdentifyPlays?: boolean;
  /**
   * Reads a request into plain JSON, the input the import keeps (a queued import is parsed again
   * from it by a worker). Throws ImportRejectedError when the request cannot be read at all.
   */
  read(request: ImportRequest): unknown;
  /** Checks the stored input as a whole; any problem rejects the import (ImportRejectedError, 400 or 413). */
  parse(input: unknown, limits: { maxScores: number }): ParsedImport<Item>;
  /** Converts one item; problems here reject only that item. */
  convert(item: Item, parsed: ParsedImport<Item>): ConvertedItem;
  /**
   * Optional check of an item's score against the chart it matched, which the pipeline makes after
   * chart matching: a message refuses that score (InvalidDatapoint). For a fact of the chart the item
   * states but the match does not use, such as a CSV row's level. (An orphan matched later by a
   * retry is not checked: orphans keep only the score element.)
   */
  checkMatch?(item: Item, chart: ChartInfo, parsed: ParsedImport<Item>): string | undefined;
}

/** One format's entry in the registry: its import types (reading, parsing and converting only; the routes of hooks live in src/ir/). */
export interface ImportFormat {
  types: readonly ImportType[];
}

/** Injection token of the registered import types (ImportsService finds a queued import's type by name). */
export const IMPORT_TYPES_TOKEN = Symbol('IMPORT_TYPES');

/** Whether the import type of this name, if registered, identifies plays by their times. */
export function timesIdentifyPlays(types: readonly ImportType[], name: string): boolean {
  return types.find((t) => t.name === name)?.timesIdentifyPlays !== false;
}
