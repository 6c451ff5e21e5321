"""The OLED screens, the buttons and the controller between them and the app."""
