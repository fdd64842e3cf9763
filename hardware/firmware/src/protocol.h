// The table board's side of hardware/PROTOCOL.md: message types, statuses and sizes.
// Keep in step with hardware/protocol.py (the host's side).
#pragma once
#include <stdint.h>

#define PROTOCOL_VERSION 1
#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0
#define SPOTS 12             // two players x (Active + 5 Bench)

// host -> board
#define MSG_HELLO 0x01       // (empty) -> HELLO reply
#define MSG_SHOW 0x02        // 12 x u16 damage (big-endian) + u8 lights -> ACK
#define MSG_FLIP 0x03        // u32 token -> COIN
#define MSG_PING 0x04        // (empty) -> ACK: the host's heartbeat
// board -> host
#define MSG_ACK 0x80         // u8 status
#define MSG_HELLO_REPLY 0x81 // u8 protocol, u8 major, u8 minor, u8 spots, u8 reset cause
#define MSG_COIN 0x83        // u32 token, u8 result (1 heads, 0 tails), u8 fresh, u8 status

#define STATUS_OK 0
#define STATUS_BAD_LENGTH 1
#define STATUS_UNKNOWN_TYPE 2
#define STATUS_NO_ENTROPY 3

// A spot's value that is not a number.
#define SPOT_BLANK 0xFFFF    // no Pokemon there
#define SPOT_DASHES 0xFFFE   // not synchronised with the host yet

// Lights byte: two bits per player (A bits 0-1, B bits 2-3).
#define LIGHT_OFF 0
#define LIGHT_ON 1           // this player's turn
#define LIGHT_BLINK 2        // an alert: a refused action or a question for this player

#define MAX_FRAME 48         // decoded bytes: type, seq, body, crc
