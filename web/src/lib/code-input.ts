import { LIMITS } from '@strongroom/contracts';

/** Keeps only digits and caps the result at the code length (6): what a code field may hold. */
export function toCodeDigits(value: string, length: number = LIMITS.mfaCodeLength): string {
  return value.replace(/\D/g, '').slice(0, length);
}

export function isCompleteCode(value: string, length: number = LIMITS.mfaCodeLength): boolean {
  return value.length === length && /^\d+$/.test(value);
}
