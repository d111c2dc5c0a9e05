"""Drawing helpers below every widget: one-row lines, theme colours, the ASCII filter and
numbers as the screen shows them."""
