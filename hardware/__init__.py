"""The optional Arduino on a serial link: coin flipper and damage displays."""
