import type { SchedulerRegistry } from '@nestjs/schedule';

/**
 * Starts a service's periodic job and registers it, under `name`, with Nest's SchedulerRegistry
 * (ScheduleModule.forRoot(), which CoreModule imports; dynamic because the periods come from the
 * config). The timer is unref'd: a job never keeps a process alive by itself. ScheduleModule
 * clears every registered interval before the application shuts down; the service removes its own
 * as well (removeInterval), since it may stop before that.
 */
export function addInterval(registry: SchedulerRegistry, name: string, everyMs: number, job: () => void): void {
  const timer = setInterval(job, everyMs);
  timer.unref();
  try {
    registry.addInterval(name, timer);
  } catch (err) {
    clearInterval(timer); // a second job of that name: not left running unregistered
    throw err;
  }
}

/** Stops and unregisters the job, if it is still registered (ScheduleModule may have cleared it first). */
export function removeInterval(registry: SchedulerRegistry, name: string): void {
  if (registry.doesExist('interval', name)) registry.deleteInterval(name);
}
