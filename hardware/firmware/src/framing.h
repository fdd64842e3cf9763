// COBS framing with a CRC-16/CCITT-FALSE trailer (hardware/PROTOCOL.md, "Frames").
#pragma once
#include <stdint.h>
#include "protocol.h"

uint16_t crc16_ccitt(const uint8_t *data, uint8_t length);

// Collects bytes from the serial line into frames. feed() returns the length of a
// decoded frame whose CRC is good (type, seq and body, without the CRC), 0 otherwise.
// Garbage, an overlong frame or a bad CRC is dropped at the next zero byte.
class FrameReader {
 public:
  uint8_t feed(uint8_t byte);
  uint8_t frame[MAX_FRAME];

 private:
  uint8_t raw_[MAX_FRAME + 2];
  uint8_t length_ = 0;
  bool overflow_ = false;
};

// Encodes type, seq and body with its CRC and writes the frame, zero byte included.
void send_frame(uint8_t type, uint8_t seq, const uint8_t *body, uint8_t length);
