import { randomInt } from 'node:crypto';

const ADJECTIVES = [
  'Agile', 'Blazing', 'Bold', 'Brave', 'Brilliant', 'Calm', 'Cheerful', 'Clever', 'Cosmic', 'Crimson', 'Crisp', 'Daring', 'Dazzling', 'Deft',
  'Dreamy', 'Eager', 'Electric', 'Elegant', 'Endless', 'Fearless', 'Fierce', 'Fiery', 'Fluid', 'Focused', 'Frantic', 'Gentle', 'Gleaming',
  'Golden', 'Graceful', 'Groovy', 'Hazy', 'Humble', 'Hyper', 'Icy', 'Infinite', 'Jazzy', 'Jolly', 'Keen', 'Kinetic', 'Lively', 'Lucky',
  'Lunar', 'Mellow', 'Mighty', 'Misty', 'Neon', 'Nimble', 'Noble', 'Patient', 'Plucky', 'Precise', 'Quick', 'Quiet', 'Radiant', 'Rapid',
  'Restless', 'Rhythmic', 'Rising', 'Roaring', 'Serene', 'Sharp', 'Shining', 'Silent', 'Silver', 'Sleek', 'Smooth', 'Snappy', 'Solar',
  'Sonic', 'Sparkling', 'Speedy', 'Spirited', 'Steady', 'Stellar', 'Stormy', 'Sublime', 'Sunny', 'Swift', 'Tidal', 'Tireless', 'Twilight',
  'Upbeat', 'Valiant', 'Velvet', 'Vibrant', 'Vivid', 'Wandering', 'Wild', 'Zealous', 'Zesty',
];

const NOUNS = [
  'Anthem', 'Arcade', 'Aurora', 'Ballad', 'Beat', 'Breeze', 'Cadence', 'Cascade', 'Chorus', 'Comet', 'Crescendo', 'Current', 'Dance',
  'Dawn', 'Drift', 'Echo', 'Encore', 'Flame', 'Flare', 'Flow', 'Fugue', 'Galaxy', 'Groove', 'Harmony', 'Horizon', 'Journey', 'Lantern',
  'Marathon', 'Medley', 'Melody', 'Meteor', 'Motif', 'Nebula', 'Nocturne', 'Odyssey', 'Orbit', 'Overture', 'Pulse', 'Quest', 'Rally',
  'Refrain', 'Rhapsody', 'Ripple', 'Rush', 'Serenade', 'Session', 'Signal', 'Sonata', 'Spark', 'Sprint', 'Storm', 'Stream', 'Streak',
  'Surge', 'Symphony', 'Tempo', 'Tide', 'Trail', 'Voyage', 'Wave', 'Whirlwind',
];

const pick = (words: readonly string[]) => words[randomInt(words.length)];

/** A readable generated name: "<adjective> <adjective> <noun>". */
export function generateSessionName(): string {
  let second = pick(ADJECTIVES);
  const first = pick(ADJECTIVES);
  while (second === first) second = pick(ADJECTIVES);
  return `${first} ${second} ${pick(NOUNS)}`;
}
