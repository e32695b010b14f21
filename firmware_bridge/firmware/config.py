"""Board settings for the reference firmware (README.md, "Wiring"). Edit, then copy to the board.
Pin numbers are GPIO numbers; the defaults suit a Raspberry Pi Pico (RP2040). For an ESP32
DevKit use the values in the comments."""

KIND = "combo"  # "board" (lamps only), "balldrop" (ball machine only) or "combo"
LINK = "usb"  # "usb": BHP/1 on the USB serial port (REPL off); "uart": on UART_ID below
UART_ID = 0  # ESP32: 2
UART_TX = 0  # ESP32: 17
UART_RX = 1  # ESP32: 16
BAUD = 115200
SAFE_PIN = 14  # ESP32: 27; jumper to GND at power-up = do not start, keep the REPL

DISPLAY = "ws2812"  # "ws2812", "max7219" or "none"
WS2812_PIN = 2  # ESP32: 4
SERPENTINE = True  # strip wired right-to-left on the I and G rows
MAX7219_SPI = 0  # ESP32: 2 (VSPI); SCK/MOSI below, CS is a plain output
MAX7219_SCK = 18  # ESP32: 18
MAX7219_MOSI = 19  # ESP32: 23
MAX7219_CS = 17  # ESP32: 5

SOLENOID_PIN = 15  # ESP32: 26; drives the MOSFET gate of the ball gate solenoid
SOLENOID_PULSE_MS = 80
SCANNER_UART_ID = 1  # the ball reader (GM65-style barcode module); ESP32: 1
SCANNER_TX = 4  # ESP32: 33
SCANNER_RX = 5  # ESP32: 32
