import { ApiProperty } from '@nestjs/swagger';
import { definePresenter } from './profile.js';

/** The spec profile's e-amusement CSV export (under tachi, the CSV text alone, as Tachi answers it). */
export class EamusementCsvDocument {
  @ApiProperty({ description: "The CSV text: e-amusement's 41-cell IIDX layout, lines separated by \\n." }) csv!: string;
}

/** Under tachi the bare CSV text, as Tachi answers it. */
export const toEamusementCsv = definePresenter('eamusementCsv', {
  spec: (csv: string): EamusementCsvDocument => ({ csv }),
  tachi: (csv): string => csv,
});
