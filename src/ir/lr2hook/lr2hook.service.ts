import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { ImportDocument } from '../../presenters/import.presenter.js';
import { CatalogRepository } from '../../repositories/catalog.repository.js';
import { ImportsService, type SubmitResult } from '../../imports/imports.service.js';
import { COURSE_MD5S, courseCleared, lr2hookCourse, type ClearedCourse } from '../../imports/import-types/lr2hook/course.js';
import { checkLr2hookBody, lr2hook } from '../../imports/import-types/lr2hook/lr2hook.js';

/** What a course submission did: the course, the class it gives and the import that applied it; empty when not cleared. */
export interface Lr2hookCourseOutcome {
  description: string;
  body: { course?: string; set?: string; value?: string; import?: ImportDocument };
}

/** Hook imports run in the request, so their answer is always the completed ImportDocument. */
function completed(result: SubmitResult): ImportDocument {
  if (result.kind !== 'completed') throw new Error('A score hook import was queued instead of run in the request.');
  return result.document;
}

/** What LR2Hook's routes do: a score per play, and course clears that raise a dan. */
@Injectable()
export class Lr2hookService {
  constructor(
    private readonly importsService: ImportsService,
    private readonly catalog: CatalogRepository,
  ) {}

  /** One play, imported in the request. */
  async import(userID: number, body: unknown): Promise<ImportDocument> {
    return completed(await this.importsService.submit(userID, lr2hook, { body, fields: {} }, false, { inline: true }));
  }

  /** A course clear raises the course's dan class (never lowers it); a course not cleared changes nothing. */
  async course(userID: number, body: unknown): Promise<Lr2hookCourseOutcome> {
    const payload = checkLr2hookBody(body);
    if (!courseCleared(payload.scoreData)) return { description: 'Class not updated: the course was not cleared.', body: {} };
    const md5sums = payload.md5.toLowerCase();
    if (!COURSE_MD5S.test(md5sums)) throw new BadRequestException("A course's md5 must be its four charts' MD5s concatenated (128 hex characters).");
    const found = await this.catalog.bmsCourse(md5sums);
    if (!found) throw new NotFoundException('Unsupported course.');
    const course: ClearedCourse = found;
    const document = completed(await this.importsService.submit(userID, lr2hookCourse, { fields: { course } }, false, { inline: true }));
    const raised = document.classDeltas.some((d) => d.set === course.set && d.new === course.value);
    return {
      description: raised ? `Class updated: ${course.title} cleared.` : `Class not updated: your ${course.set} is already ${course.value} or higher.`,
      body: { course: course.title, set: course.set, value: course.value, import: document },
    };
  }
}
