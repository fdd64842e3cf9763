#include "displays.h"

#include <Arduino.h>

#include "protocol.h"

// Chain: D11 (MOSI) -> DIN of chip 0, its DOUT -> DIN of chip 1, ... chip 5.
// All chips share CLK (D13) and LOAD (D10). Chip c shows spots 2c (digits 0-3) and
// 2c+1 (digits 4-7). Spots 0-5 are player A's Active and Bench 1-5, 6-11 player B's.
static const uint8_t CHIPS = SPOTS / 2;
static const uint8_t LOAD_PIN = 10;
static const uint8_t LIGHT_PIN[2] = {5, 6};

static const uint8_t REG_DIGIT0 = 0x01, REG_DECODE = 0x09, REG_INTENSITY = 0x0A, REG_SCAN_LIMIT = 0x0B,
                     REG_SHUTDOWN = 0x0C, REG_TEST = 0x0F;
static const uint8_t CODE_B_DASH = 0x0A, CODE_B_BLANK = 0x0F;

static void spi_byte(uint8_t value) {
  SPDR = value;
  while (!(SPSR & _BV(SPIF))) {
  }
}

// One register of every chip: the word for the last chip is shifted first.
static void write_chain(uint8_t reg, const uint8_t data[CHIPS]) {
  digitalWrite(LOAD_PIN, LOW);
  for (int8_t chip = CHIPS - 1; chip >= 0; chip--) {
    spi_byte(reg);
    spi_byte(data[chip]);
  }
  digitalWrite(LOAD_PIN, HIGH);  // the chips latch on LOAD's rising edge
}

static void write_all(uint8_t reg, uint8_t value) {
  uint8_t data[CHIPS];
  for (uint8_t chip = 0; chip < CHIPS; chip++) data[chip] = value;
  write_chain(reg, data);
}

// The Code B digit at `place` (0 leftmost .. 3) of a spot's value, right-aligned.
static uint8_t digit_of(uint16_t value, uint8_t place) {
  if (value == SPOT_BLANK) return CODE_B_BLANK;
  if (value == SPOT_DASHES) return CODE_B_DASH;
  if (value > 9999) value = 9999;
  static const uint16_t POWERS[4] = {1000, 100, 10, 1};
  uint16_t power = POWERS[place];
  if (value < power && place < 3) return CODE_B_BLANK;  // no leading zeros
  return (value / power) % 10;
}

void displays_begin() {
  pinMode(LOAD_PIN, OUTPUT);
  digitalWrite(LOAD_PIN, HIGH);
  pinMode(11, OUTPUT);
  pinMode(13, OUTPUT);
  SPCR = _BV(SPE) | _BV(MSTR);  // SPI master, mode 0, MSB first
  SPSR = _BV(SPI2X);            // 8 MHz: the MAX7219 takes up to 10 MHz
  for (uint8_t i = 0; i < 2; i++) pinMode(LIGHT_PIN[i], OUTPUT);
  uint16_t dashes[SPOTS];
  for (uint8_t i = 0; i < SPOTS; i++) dashes[i] = SPOT_DASHES;
  displays_show(dashes, 0);
}

void displays_show(const uint16_t spots[], uint8_t lights) {
  write_all(REG_TEST, 0);
  write_all(REG_DECODE, 0xFF);
  write_all(REG_SCAN_LIMIT, 7);
  write_all(REG_INTENSITY, 8);
  for (uint8_t digit = 0; digit < 8; digit++) {
    uint8_t data[CHIPS];
    for (uint8_t chip = 0; chip < CHIPS; chip++) data[chip] = digit_of(spots[2 * chip + digit / 4], digit % 4);
    write_chain(REG_DIGIT0 + digit, data);
  }
  write_all(REG_SHUTDOWN, 1);
  lights_tick(lights, false);
}

void lights_tick(uint8_t lights, bool link_lost) {
  unsigned long now = millis();
  for (uint8_t player = 0; player < 2; player++) {
    uint8_t mode = (lights >> (2 * player)) & 0x03;
    bool on;
    if (link_lost) on = (now / 125) % 2;
    else if (mode == LIGHT_BLINK) on = (now / 500) % 2;
    else on = mode == LIGHT_ON;
    digitalWrite(LIGHT_PIN[player], on ? HIGH : LOW);
  }
}
