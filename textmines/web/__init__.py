"""``textmines --serve``: the web host that plays textmines in a browser, a ``textmines --tab``
process per tab. It never imports Textual: the tab's Textual driver is ``textmines.ui.web_tab``."""
