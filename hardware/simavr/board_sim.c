/*
 * The table board in simavr: runs the real compiled firmware (an ATmega328P at 16 MHz,
 * as on an Uno) and plays the parts around it.
 *
 *   board-sim FIRMWARE.elf LINK
 *
 * - The UART is bridged to a pseudo-terminal; LINK is a symlink to its slave side, the
 *   board's "serial port". Opening the port resets the board, as an Uno's DTR line does.
 * - The MAX7219 chain: each latch (LOAD rising) prints "latch" and the bytes shifted
 *   since LOAD fell, in hex, on stdout. The status lights print "light A|B 0|1".
 * - The noise source on A0: each ADC conversion reads a voltage from getrandom(), the
 *   part that on a real board is the avalanche-noise circuit.
 * - Faults, by signal: SIGUSR1 presses the reset button (the board restarts, the port
 *   stays); SIGUSR2 unplugs and replugs the board (the port disappears, a new one comes
 *   back under LINK after 300 ms, the board restarts). EEPROM survives both, as on a chip.
 * - SIGTERM or SIGINT ends it.
 *
 * "ready PATH" on stdout says the port is there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <termios.h>
#include <unistd.h>

#include <simavr/avr_adc.h>
#include <simavr/avr_ioport.h>
#include <simavr/avr_spi.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>

static volatile sig_atomic_t reset_requested, replug_requested, stop_requested;
static int master = -1;
static int xon = 1;
static int port_open;  // someone has the slave side open
static const char *link_path;
static avr_t *avr;
static avr_irq_t *uart_input, *adc0;
static uint8_t spi_bytes[64];
static unsigned spi_count;

static void on_signal(int sig) {
  if (sig == SIGUSR1) reset_requested = 1;
  else if (sig == SIGUSR2) replug_requested = 1;
  else stop_requested = 1;
}

static void open_port(void) {
  int slave;
  char name[256];
  if (openpty(&master, &slave, name, NULL, NULL) < 0) {
    perror("openpty");
    exit(1);
  }
  struct termios tio;
  tcgetattr(slave, &tio);
  cfmakeraw(&tio);
  tcsetattr(slave, TCSANOW, &tio);
  close(slave);  // the host opens it; until then the master sees a hang-up
  fcntl(master, F_SETFL, O_NONBLOCK);
  port_open = 0;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", link_path);
  unlink(tmp);
  if (symlink(name, tmp) < 0 || rename(tmp, link_path) < 0) {
    perror("symlink");
    exit(1);
  }
  printf("ready %s\n", name);
  fflush(stdout);
}

static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  uint8_t byte = value;
  if (master >= 0 && port_open) (void)!write(master, &byte, 1);  // nobody listening: the byte is lost, as on a wire
}

static void on_xon(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)value, (void)param;
  xon = 1;
}

static void on_xoff(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)value, (void)param;
  xon = 0;
}

static void on_adc_trigger(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)value, (void)param;
  uint16_t noise;
  if (getrandom(&noise, sizeof noise, 0) != sizeof noise) noise = 0;
  avr_raise_irq(adc0, 2000 + noise % 1000);  // millivolts around the divider's midpoint
}

static void on_spi_output(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  if (spi_count < sizeof spi_bytes) spi_bytes[spi_count++] = value;
}

static void on_load(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  if (!value) {
    spi_count = 0;
    return;
  }
  printf("latch");
  for (unsigned i = 0; i < spi_count; i++) printf(" %02x", spi_bytes[i]);
  printf("\n");
  fflush(stdout);
  spi_count = 0;
}

static void on_light(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  printf("light %s %u\n", (const char *)param, value ? 1 : 0);
  fflush(stdout);
}

// Takes bytes from the host while the UART's input queue has room; notices the port
// being opened (which resets the board) and closed.
static void service_port(void) {
  struct pollfd p = {.fd = master, .events = POLLIN};
  if (poll(&p, 1, 0) < 0) return;
  int open_now = !(p.revents & POLLHUP);
  if (open_now && !port_open) {
    port_open = 1;
    avr_reset(avr);  // DTR: the Uno restarts when its port opens
  } else if (!open_now) {
    port_open = 0;
  }
  while (port_open && xon && (p.revents & POLLIN)) {
    uint8_t byte;
    ssize_t n = read(master, &byte, 1);
    if (n != 1) break;
    avr_raise_irq(uart_input, byte);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s FIRMWARE.elf LINK\n", argv[0]);
    return 2;
  }
  link_path = argv[2];
  elf_firmware_t firmware;
  memset(&firmware, 0, sizeof firmware);
  if (elf_read_firmware(argv[1], &firmware) != 0) {
    fprintf(stderr, "board-sim: cannot read %s\n", argv[1]);
    return 1;
  }
  strcpy(firmware.mmcu, "atmega328p");
  firmware.frequency = 16000000;
  avr = avr_make_mcu_by_name(firmware.mmcu);
  if (!avr) return 1;
  avr_init(avr);
  avr_load_firmware(avr, &firmware);
  avr->log = 0;

  uint32_t flags = 0;  // no console echo; no polling sleep (the firmware sleeps itself)
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_output, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_xon, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_xoff, NULL);
  adc0 = avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_OUT_TRIGGER), on_adc_trigger, NULL);
  // the Uno's SPI is declared without a name: its ioctl name is 0, not '0'
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), on_spi_output, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 2), on_load, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 5), on_light, "A");
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6), on_light, "B");

  struct sigaction action = {.sa_handler = on_signal};
  sigaction(SIGUSR1, &action, NULL);
  sigaction(SIGUSR2, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  signal(SIGPIPE, SIG_IGN);
  open_port();

  for (unsigned long step = 0; !stop_requested; step++) {
    int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      fprintf(stderr, "board-sim: the firmware stopped (state %d)\n", state);
      break;
    }
    if (state == cpu_Sleeping || step % 512 == 0) service_port();
    if (reset_requested) {
      reset_requested = 0;
      avr_reset(avr);
    }
    if (replug_requested) {
      replug_requested = 0;
      close(master);
      master = -1;
      unlink(link_path);
      usleep(300000);
      open_port();
      avr_reset(avr);
    }
  }
  unlink(link_path);
  return 0;
}
