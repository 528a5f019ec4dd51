"""The browser of the play page's tests: one headless Chromium for the whole test session
(Debian's, driven by Selenium through Debian's chromedriver; scripts/test.sh installs
both), shared by every module that plays a page, so that the suite starts it once."""
import tempfile

import pytest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def browser():
    # lazy: only the modules that play a page need Selenium
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.TemporaryDirectory(prefix="puzzle-engine-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--user-data-dir={profile.name}", "--window-size=1000,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        profile.cleanup()
