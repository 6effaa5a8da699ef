/** Check digits that turn "looks like an id" into "is an id": Luhn, Verhoeff (Aadhaar), NRIC/FIN letter. */

/** Luhn mod-10 over a string of digits (ISO/IEC 7812-1). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return false;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

// Verhoeff's dihedral-group tables (multiplication d, permutation p).
const VERHOEFF_MULTIPLY = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_PERMUTE = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff check over a string of digits whose last digit is the check digit. */
export function passesVerhoeff(digits: string): boolean {
  let check = 0;
  for (let position = 0; position < digits.length; position++) {
    const digit = digits.charCodeAt(digits.length - 1 - position) - 48;
    if (digit < 0 || digit > 9) return false;
    check = VERHOEFF_MULTIPLY[check][VERHOEFF_PERMUTE[position % 8][digit]];
  }
  return digits.length > 0 && check === 0;
}

const NRIC_WEIGHTS = [2, 7, 6, 5, 4, 3, 2];
const NRIC_LETTERS_ST = 'JZIHGFEDCBA';
const NRIC_LETTERS_FG = 'XWUTRQPNMLK';

/** Singapore NRIC (S, T) and FIN (F, G): the digits' weighted sum (+4 for T and G) mod 11 picks the last letter. */
export function passesNricCheck(id: string): boolean {
  if (!/^[STFG]\d{7}[A-Z]$/.test(id)) return false;
  const prefix = id[0];
  let sum = prefix === 'T' || prefix === 'G' ? 4 : 0;
  for (let index = 0; index < 7; index++) sum += (id.charCodeAt(index + 1) - 48) * NRIC_WEIGHTS[index];
  const letters = prefix === 'S' || prefix === 'T' ? NRIC_LETTERS_ST : NRIC_LETTERS_FG;
  return letters[sum % 11] === id[8];
}

/** Issuer prefixes of the card networks govflow recognises (Visa, Mastercard, Amex, Discover, Diners, JCB, UnionPay, Maestro). */
export function hasCardIssuerPrefix(digits: string): boolean {
  const length = digits.length;
  const two = Number(digits.slice(0, 2));
  const three = Number(digits.slice(0, 3));
  const four = Number(digits.slice(0, 4));
  const six = Number(digits.slice(0, 6));
  if (digits[0] === '4') return length === 13 || length === 16 || length === 19; // Visa
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return length === 16; // Mastercard
  if (two === 34 || two === 37) return length === 15; // American Express
  if (four === 6011 || two === 65 || (three >= 644 && three <= 649) || (six >= 622126 && six <= 622925))
    return length >= 16 && length <= 19; // Discover
  if (two === 36 || two === 38 || two === 39 || (three >= 300 && three <= 305)) return length >= 14 && length <= 19; // Diners Club
  if (four >= 3528 && four <= 3589) return length >= 16 && length <= 19; // JCB
  if (two === 62) return length >= 16 && length <= 19; // UnionPay
  if (two === 50 || (two >= 56 && two <= 69)) return length >= 12 && length <= 19; // Maestro
  return false;
}
