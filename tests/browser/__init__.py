"""Browser tests: Chromium driven by Playwright against a live server."""
