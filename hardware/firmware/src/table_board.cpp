// The table board: damage displays, turn lights and a coin, driven by the host over the
// serial line (hardware/PROTOCOL.md). Every command is idempotent ("show this state",
// "flip coin <token>"), so the host may always send a command again: after a lost reply,
// a reset of the board, or a reconnect.
#include <Arduino.h>
#include <avr/sleep.h>

#include "coin.h"
#include "displays.h"
#include "framing.h"
#include "protocol.h"

static const unsigned long BAUD = 115200;
// No frame from the host for this long: the lights say the link is lost.
static const unsigned long LINK_TIMEOUT_MS = 3000;

static FrameReader reader;
static uint8_t lights = 0;
static bool synced = false;  // the host has shown a state since this boot
static unsigned long last_frame_ms = 0;
static uint8_t reset_cause = 0;

static void reply_ack(uint8_t seq, uint8_t status) { send_frame(MSG_ACK, seq, &status, 1); }

static void reply_hello(uint8_t seq) {
  const uint8_t body[] = {PROTOCOL_VERSION, FIRMWARE_MAJOR, FIRMWARE_MINOR, SPOTS, reset_cause};
  send_frame(MSG_HELLO_REPLY, seq, body, sizeof body);
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)p[0] << 8 | p[1]; }

static void handle(const uint8_t *frame, uint8_t length) {
  uint8_t type = frame[0], seq = frame[1];
  const uint8_t *body = frame + 2;
  uint8_t size = length - 2;
  last_frame_ms = millis();
  switch (type) {
    case MSG_HELLO:
      reply_hello(seq);
      break;
    case MSG_PING:
      reply_ack(seq, STATUS_OK);
      break;
    case MSG_SHOW: {
      if (size != 2 * SPOTS + 1) return reply_ack(seq, STATUS_BAD_LENGTH);
      uint16_t spots[SPOTS];
      for (uint8_t i = 0; i < SPOTS; i++) spots[i] = be16(body + 2 * i);
      lights = body[2 * SPOTS];
      displays_show(spots, lights);
      synced = true;
      reply_ack(seq, STATUS_OK);
      break;
    }
    case MSG_FLIP: {
      if (size != 4) return reply_ack(seq, STATUS_BAD_LENGTH);
      CoinResult coin = coin_flip((uint32_t)be16(body) << 16 | be16(body + 2));
      const uint8_t status = coin.ok ? STATUS_OK : STATUS_NO_ENTROPY;
      const uint8_t reply[] = {body[0], body[1], body[2], body[3], coin.result, coin.fresh, status};
      send_frame(MSG_COIN, seq, reply, sizeof reply);
      break;
    }
    default:
      reply_ack(seq, STATUS_UNKNOWN_TYPE);
  }
}

void setup() {
  reset_cause = MCUSR;
  MCUSR = 0;
  Serial.begin(BAUD);
  displays_begin();
  reply_hello(0);  // unasked: tells the host the board has (re)started
}

void loop() {
  while (Serial.available()) {
    uint8_t length = reader.feed(Serial.read());
    if (length) handle(reader.frame, length);
  }
  lights_tick(lights, synced && millis() - last_frame_ms > LINK_TIMEOUT_MS);
  // Idle until the next byte or the 1 ms timer tick: no busy loop.
  set_sleep_mode(SLEEP_MODE_IDLE);
  sleep_mode();
}
