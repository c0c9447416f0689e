"""The Invoices tab in a real browser (headless Chromium, as ``test_browser.py``): open the tab, pick a sample,
read it, and see every field beside its record with the page and its boxes; failed checks come first."""

from __future__ import annotations

import re

from tests.integration.test_browser import WAIT_MS, browser, js_errors, live_url, page, pytestmark, shot  # noqa: F401


def test_a_sample_invoice_is_read_in_the_browser(page, js_errors):  # noqa: F811
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Invoices").click()
    dropdown = page.locator("#invoice-sample input")
    dropdown.click()
    page.get_by_role("option", name=re.compile(r"Developed layout \(dev-a\), PDF")).click()
    page.locator("#invoice-read-sample").click()
    result = page.locator("#invoice-result")
    expect(result).to_contain_text("Every check passed", timeout=WAIT_MS)
    expect(result).to_contain_text("855.86")
    assert "✗" not in result.inner_text() and result.inner_text().count("✓") >= 8
    expect(page.locator("#invoice-image img")).to_be_visible(timeout=WAIT_MS)
    shot(page, "invoice-tab.png")
    # The documents tab is still there, as it was.
    page.get_by_role("tab", name="Documents").click()
    expect(page.locator("#ask")).to_be_visible()
    assert js_errors == []
