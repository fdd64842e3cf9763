// Twelve 4-digit damage displays on six chained MAX7219 drivers, and the two players'
// status lights (hardware/README.md has the wiring).
#pragma once
#include <stdint.h>

void displays_begin();
// Shows every spot and light as given: the whole state, every time (a chip that lost
// its settings to a brown-out is set up again too).
void displays_show(const uint16_t spots[], uint8_t lights);
// Drives the status lights; called from loop() so that blinking goes on. link_lost
// blinks both lights fast, whatever they showed.
void lights_tick(uint8_t lights, bool link_lost);
