#include "framing.h"

#include <Arduino.h>
#include <util/crc16.h>

uint16_t crc16_ccitt(const uint8_t *data, uint8_t length) {
  uint16_t crc = 0xFFFF;
  for (uint8_t i = 0; i < length; i++) crc = _crc_xmodem_update(crc, data[i]);
  return crc;
}

// COBS decoding in place: each code byte says how far the next zero is.
static uint8_t cobs_decode(const uint8_t *in, uint8_t length, uint8_t *out) {
  uint8_t read = 0, written = 0;
  while (read < length) {
    uint8_t code = in[read++];
    if (code == 0 || read + code - 1 > length) return 0;
    for (uint8_t i = 1; i < code; i++) out[written++] = in[read++];
    if (code != 0xFF && read < length) out[written++] = 0;
  }
  return written;
}

uint8_t FrameReader::feed(uint8_t byte) {
  if (byte != 0) {
    if (length_ < sizeof raw_) raw_[length_++] = byte;
    else overflow_ = true;
    return 0;
  }
  uint8_t decoded = 0;
  if (!overflow_ && length_ > 0) decoded = cobs_decode(raw_, length_, frame);
  length_ = 0;
  overflow_ = false;
  if (decoded < 4) return 0;  // type, seq and two CRC bytes at least
  uint16_t crc = (uint16_t)frame[decoded - 2] << 8 | frame[decoded - 1];
  if (crc16_ccitt(frame, decoded - 2) != crc) return 0;
  return decoded - 2;
}

void send_frame(uint8_t type, uint8_t seq, const uint8_t *body, uint8_t length) {
  uint8_t plain[MAX_FRAME];
  uint8_t n = 0;
  plain[n++] = type;
  plain[n++] = seq;
  for (uint8_t i = 0; i < length && n < MAX_FRAME - 2; i++) plain[n++] = body[i];
  uint16_t crc = crc16_ccitt(plain, n);
  plain[n++] = crc >> 8;
  plain[n++] = crc & 0xFF;

  uint8_t out[MAX_FRAME + 3];
  uint8_t code_at = 0, written = 1, code = 1;
  for (uint8_t i = 0; i < n; i++) {
    if (plain[i] == 0) {
      out[code_at] = code;
      code_at = written++;
      code = 1;
    } else {
      out[written++] = plain[i];
      if (++code == 0xFF) {  // never reached: frames are shorter than 254 bytes
        out[code_at] = code;
        code_at = written++;
        code = 1;
      }
    }
  }
  out[code_at] = code;
  out[written++] = 0;
  Serial.write(out, written);
}
