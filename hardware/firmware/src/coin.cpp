#include "coin.h"

#include <Arduino.h>
#include <avr/eeprom.h>

// The noise: analog pin A0 reads an avalanche-noise source (hardware/README.md); only
// the lowest bit of each reading is used. Von Neumann's method removes a bias: of two
// readings' bits, 01 gives 0 and 10 gives 1, 00 and 11 give nothing. A coin is the
// parity of 15 such bits, which washes out what correlation is left.
static const uint8_t NOISE_PIN = A0;
static const uint8_t BITS_PER_COIN = 15;
static const uint16_t MAX_PAIRS = 600;  // health test: a live source needs ~60

int8_t coin_from_noise() {
  uint8_t parity = 0, bits = 0;
  int last_reading = -1;
  uint8_t repeats = 0;
  for (uint16_t pair = 0; pair < MAX_PAIRS && bits < BITS_PER_COIN; pair++) {
    int first = analogRead(NOISE_PIN), second = analogRead(NOISE_PIN);
    // a stuck input (a cut wire reads 0 or 1023 forever) is no noise at all
    repeats = (first == last_reading && second == first) ? repeats + 1 : 0;
    if (repeats > 16) return -1;
    last_reading = second;
    uint8_t a = first & 1, b = second & 1;
    if (a != b) {
      parity ^= a;
      bits++;
    }
  }
  return bits == BITS_PER_COIN ? parity : -1;
}

// EEPROM: the last flip, so a reset between the flip and its reply loses nothing.
// The marker is cleared first and set last: a reset while writing leaves no half record.
static uint8_t *const EE_MARK = (uint8_t *)0;
static uint32_t *const EE_TOKEN = (uint32_t *)1;
static uint8_t *const EE_RESULT = (uint8_t *)5;
static const uint8_t MARK_VALID = 0xC5;

CoinResult coin_flip(uint32_t token) {
  if (eeprom_read_byte(EE_MARK) == MARK_VALID && eeprom_read_dword(EE_TOKEN) == token)
    return {eeprom_read_byte(EE_RESULT), false, true};
  int8_t side = coin_from_noise();
  if (side < 0) return {0, false, false};
  eeprom_update_byte(EE_MARK, 0);
  eeprom_update_dword(EE_TOKEN, token);
  eeprom_update_byte(EE_RESULT, (uint8_t)side);
  eeprom_update_byte(EE_MARK, MARK_VALID);
  return {(uint8_t)side, true, true};
}
