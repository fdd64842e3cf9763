// The coin: a flip from hardware noise, remembered by token so that asking again for
// the same flip (a lost reply, a reset, a reconnect) gets the same side, never a new one.
#pragma once
#include <stdint.h>

// 1 heads, 0 tails, or -1 when the noise source looks dead (stuck or one-sided).
int8_t coin_from_noise();

struct CoinResult {
  uint8_t result;  // 1 heads, 0 tails
  bool fresh;      // flipped now, not remembered from an earlier ask
  bool ok;         // false: the noise source failed its health test
};

CoinResult coin_flip(uint32_t token);
