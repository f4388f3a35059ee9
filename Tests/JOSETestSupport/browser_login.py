#!/usr/bin/env python3
"""The user's part of a browser login, in a headless Chromium driven by selenium.

    python3 browser_login.py AUTHORIZE_URL allow|deny|visit [EXTRA_URL ...]

Opens AUTHORIZE_URL; with allow or deny it signs in on the test provider's form (alice /
wonderland) and answers its consent page; with visit it only loads the URL. Then it loads each
EXTRA_URL. It prints one JSON line per page it ended on: {"url", "title", "text"}. Exit 0 when
the browser ran, 2 when Chromium or its driver could not start.

Chromium and chromedriver come from Debian's chromium and chromium-driver packages.
"""

import json
import sys

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


def page(driver):
    return json.dumps({"url": driver.current_url, "title": driver.title,
                       "text": driver.find_element(By.TAG_NAME, "body").text})


def main():
    url, action, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    except Exception as error:  # noqa: BLE001 - any start failure is reported the same way
        print("cannot start chromium: %s" % error, file=sys.stderr)
        return 2
    try:
        driver.set_page_load_timeout(60)
        driver.get(url)
        if action in ("allow", "deny"):
            # Each form's submission replaces the page: a lookup made while it does fails with
            # "aborted by navigation" (a WebDriverException, like "no such element"), so the
            # waits poll past both until the next page is there, or give up after 60 s.
            wait = WebDriverWait(driver, 60, ignored_exceptions=(WebDriverException,))
            wait.until(expected_conditions.presence_of_element_located((By.ID, "username"))).send_keys("alice")
            driver.find_element(By.ID, "password").send_keys("wonderland")
            driver.find_element(By.ID, "sign-in").click()
            wait.until(expected_conditions.presence_of_element_located((By.ID, action))).click()
            wait.until(lambda current: current.current_url.startswith("http://127.0.0.1:")
                       and "/callback" in current.current_url
                       and current.find_elements(By.TAG_NAME, "h1"))
        print(page(driver), flush=True)
        for other in extra:
            driver.get(other)
            print(page(driver), flush=True)
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
