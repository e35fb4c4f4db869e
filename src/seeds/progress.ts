import { SingleBar, Presets } from 'cli-progress';

/** Where the seed loader reports progress. */
export interface SeedProgress {
  phase(label: string, total: number): void;
  advance(by?: number): void;
  done(): void;
  log(line: string): void;
}

/** A progress bar on a terminal. */
export class BarProgress implements SeedProgress {
  private bar?: SingleBar;

  phase(label: string, total: number) {
    this.done();
    this.bar = new SingleBar({ format: `${label.padEnd(28)} [{bar}] {value}/{total}`, hideCursor: true, stream: process.stderr }, Presets.shades_classic);
    this.bar.start(total, 0);
  }

  advance(by = 1) {
    this.bar?.increment(by);
  }

  done() {
    this.bar?.stop();
    this.bar = undefined;
  }

  log(line: string) {
    this.done();
    process.stderr.write(`${line}\n`);
  }
}

/** Plain progress lines (not a terminal: CI logs, pipes): start and end of each phase, and every ~10% of a large one. */
export class LineProgress implements SeedProgress {
  private label = '';
  private total = 0;
  private value = 0;
  private nextReport = 0;

  constructor(private readonly write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {}

  phase(label: string, total: number) {
    this.label = label;
    this.total = total;
    this.value = 0;
    this.nextReport = total >= 5000 ? Math.ceil(total / 10) : total;
    this.write(`${label}: 0/${total}`);
  }

  advance(by = 1) {
    this.value += by;
    if (this.value >= this.nextReport || this.value === this.total) {
      this.write(`${this.label}: ${this.value}/${this.total}`);
      this.nextReport = this.total >= 5000 ? this.value + Math.ceil(this.total / 10) : this.total;
    }
  }

  done() {}

  log(line: string) {
    this.write(line);
  }
}

export const SILENT_PROGRESS: SeedProgress = { phase() {}, advance() {}, done() {}, log() {} };

export function progressFor(stream: NodeJS.WriteStream): SeedProgress {
  return stream.isTTY ? new BarProgress() : new LineProgress();
}
