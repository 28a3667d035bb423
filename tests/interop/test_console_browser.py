"""The admin console in Debian's chromium (SPEC §14; the setup of test_browser_login.py): an admin signs in through
the hosted login form, walks every console page at 1280×800 and at a phone's 390×844, and uses them by keyboard and
form — create an API and an application, grant it the API, rotate its secret (which then works at /oauth/token),
create a GitHub connection and enable it for the application, find a user by query and block and unblock them,
add a post-login rule with a syntax error (shown at its position) and fix it, filter the logs, rotate the keys, cancel a pending CIBA request. On every page: nothing wider than the
screen, every form control labelled (a <label for>, aria-label or aria-labelledby), text contrast at least 4.5:1
(WCAG 2.1 §1.4.3, computed from the rendered colours), every chart an image with a text alternative.

Screenshots go to docs/screenshots/console-<page>-{desktop,phone}.png when WARDEN_UPDATE_SCREENSHOTS=1, otherwise
to the test's temp dir.
"""

from __future__ import annotations

import os
import pathlib

from cibalib import ciba_app, start_request
from pkcelib import create_user
from wardenlib import uid
from test_browser_login import PHONE, browser, page_wait  # noqa: F401  (the chromium fixture)
from test_console import make_admin
from wardenlib import Warden

REPO = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "docs" / "screenshots"
DESKTOP = (1280, 800)
PAGES = [("overview", "admin/"), ("users", "admin/users"), ("applications", "admin/applications"),
         ("apis", "admin/apis"), ("connections", "admin/connections"),
         ("connection-new", "admin/connections/new"), ("rules", "admin/rules"), ("mfa", "admin/mfa"), ("ciba", "admin/ciba"),
         ("logs", "admin/logs"), ("keys", "admin/keys")]

# Every text node's colour against the first opaque background behind it: WCAG 2.1 relative luminance.
CONTRAST_JS = """
function lum(c){const [r,g,b]=c.match(/[\\d.]+/g).slice(0,3).map(Number).map(v=>{v/=255;
  return v<=0.03928?v/12.92:Math.pow((v+0.055)/1.055,2.4)});return 0.2126*r+0.7152*g+0.0722*b}
function bg(el){for(;el;el=el.parentElement){const c=getComputedStyle(el).backgroundColor;
  const a=c.match(/[\\d.]+/g);if(a&&(a.length<4||Number(a[3])>0.5))return c}return 'rgb(255,255,255)'}
const bad=[];const walker=document.createTreeWalker(document.body,NodeFilter.SHOW_TEXT);
while(walker.nextNode()){const n=walker.currentNode;const t=n.textContent.trim();const el=n.parentElement;
  if(!t||!el||el.closest('svg')||el.offsetParent===null&&getComputedStyle(el).position!=='fixed')continue;
  if(el.closest('.visually-hidden'))continue;
  const a=lum(getComputedStyle(el).color),b=lum(bg(el));const ratio=(Math.max(a,b)+0.05)/(Math.min(a,b)+0.05);
  if(ratio<4.5)bad.push(t.slice(0,40)+' '+ratio.toFixed(2))}
return bad;
"""

UNLABELLED_JS = """
return [...document.querySelectorAll('input:not([type=hidden]),select,textarea,button')].filter(e=>{
  if(e.getAttribute('aria-label')||e.getAttribute('aria-labelledby'))return false;
  if(e.tagName==='BUTTON')return !e.textContent.trim();
  return !(e.id&&document.querySelector('label[for="'+e.id+'"]'))&&!e.closest('label')}).map(e=>e.outerHTML.slice(0,80));
"""


# The elements that reach past the right edge of the screen or whose text overflows them, for the message of a
# page too wide.
WIDE_JS = """
return [...document.querySelectorAll('body *')].filter(e=>e.getBoundingClientRect().right>innerWidth+0.5
  ||e.scrollWidth>e.clientWidth+1&&getComputedStyle(e).overflowX==='visible')
  .map(e=>e.tagName+'.'+e.className+' '+e.textContent.trim().slice(0,30)).slice(-6);
"""


def set_size(driver, size: tuple[int, int]) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1 if size == DESKTOP else 2,
        "mobile": size != DESKTOP})


def check_page(driver, name: str, size: tuple[int, int], tmp_path) -> None:
    from selenium.webdriver.common.by import By

    assert driver.find_element(By.TAG_NAME, "h1").text, f"{name}: no heading"
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= size[0], f"{name} is {width}px wide at {size[0]}px: " + str(driver.execute_script(WIDE_JS))
    assert driver.execute_script(UNLABELLED_JS) == [], f"{name}: unlabelled controls"
    assert driver.execute_script(CONTRAST_JS) == [], f"{name}: text below 4.5:1 contrast"
    for chart in driver.find_elements(By.CSS_SELECTOR, "svg[role=img]"):
        label = chart.get_attribute("aria-labelledby")
        assert label and driver.find_element(By.ID, label).get_attribute("textContent"), f"{name}: chart without text"
    kind = "desktop" if size == DESKTOP else "phone"
    target = (SCREENSHOTS if os.environ.get("WARDEN_UPDATE_SCREENSHOTS") == "1" else tmp_path) / f"console-{name}-{kind}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    driver.execute_script("document.documentElement.style.height='auto'")
    assert driver.save_screenshot(str(target)) and target.stat().st_size > 5000, target


def manage_by_browser(driver, warden: Warden, wait) -> list[tuple[str, str]]:
    """The changes of SPEC §14 by form, as an operator makes them; the detail pages it leaves, to walk."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select

    def notice(text: str) -> None:
        wait.until(ec.text_to_be_present_in_element((By.CLASS_NAME, "notice"), text))

    def press(label: str) -> None:
        driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()

    # An API with a scope.
    tag = uid()
    identifier = f"https://reports-{tag}.test/"
    driver.get(warden.url("admin/apis"))
    driver.find_element(By.ID, "f-identifier").send_keys(identifier)
    driver.find_element(By.ID, "f-name").send_keys("Reports API")
    press("Create the API")
    notice("The API was created")
    driver.find_element(By.ID, "f-scopes").send_keys("read:reports Read the reports")
    Select(driver.find_element(By.ID, "f-signing_alg")).select_by_value("RS256")
    press("Save")
    notice("The API was saved")
    api_page = driver.current_url.split("?")[0]

    # An application allowed client_credentials, granted the API, its secret rotated.
    driver.get(warden.url("admin/applications"))
    driver.find_element(By.ID, "f-name").send_keys("Reports robot")
    Select(driver.find_element(By.ID, "f-app_type")).select_by_value("non_interactive")
    press("Create the application")
    first = wait.until(ec.visibility_of_element_located((By.ID, "client-secret"))).text
    client_id = driver.find_element(By.ID, "client-id").text
    driver.find_element(By.XPATH, "//label[normalize-space()='client_credentials']").click()
    press("Save")
    notice("The application was saved")
    Select(driver.find_element(By.ID, "f-audience")).select_by_value(identifier)
    driver.find_element(By.ID, "f-scope").send_keys("read:reports")
    press("Grant")
    notice("The client grants were saved")
    press("Rotate secret")
    secret = wait.until(ec.visibility_of_element_located((By.ID, "client-secret"))).text
    assert secret and secret != first
    token = warden.client_credentials(client_id, secret, identifier)
    assert token.status_code == 200 and token.json()["scope"] == "read:reports", token.text
    assert warden.client_credentials(client_id, first, identifier).status_code == 401
    app_page = warden.url(f"admin/applications/{client_id}")

    # A GitHub connection from its preset (the secret never shown again), enabled for the application.
    driver.get(warden.url("admin/connections"))
    driver.find_element(By.LINK_TEXT, "GitHub").click()
    name = wait.until(ec.visibility_of_element_located((By.ID, "f-name")))
    name.clear()
    name.send_keys(f"github-{tag}")
    driver.find_element(By.ID, "f-options-client_id").send_keys("Iv1.console")
    driver.find_element(By.ID, "f-options-client_secret").send_keys(f"gh-secret-{tag}")
    press("Create the connection")
    notice("The connection was created")
    assert f"gh-secret-{tag}" not in driver.page_source
    driver.find_element(By.NAME, f"enabled_clients:{client_id}").click()
    press("Save the applications")
    notice("The applications were saved")
    connection_page = driver.current_url.split("?")[0]
    connection_id = connection_page.rsplit("/", 1)[1]
    clients = warden.mgmt("GET", f"connections/{connection_id}/clients").json()["clients"]
    assert {"client_id": client_id} in clients, clients

    # A user found by query, blocked and unblocked.
    target = create_user(warden, name=f"Blocked {tag}")
    driver.get(warden.url("admin/users"))
    driver.find_element(By.ID, "q").send_keys(f'email:"{target.email}"' + Keys.ENTER)
    # The unfiltered list may show the same link: wait for the searched page before following it.
    wait.until(ec.url_contains("q="))
    wait.until(ec.element_to_be_clickable((By.LINK_TEXT, target.email))).click()
    wait.until(ec.url_contains("admin/users/"))
    press("Block")
    notice("The user was saved")
    assert warden.mgmt("GET", f"users/{target.user_id}").json()["blocked"] is True
    press("Unblock")
    # The page before showed the same notice: wait for the one the unblocking answered with.
    wait.until(ec.presence_of_element_located((By.XPATH, "//button[normalize-space()='Block']")))
    notice("The user was saved")
    assert warden.mgmt("GET", f"users/{target.user_id}").json()["blocked"] is False
    user_page = driver.current_url.split("?")[0]

    # A rule with a syntax error: refused at its position, the text kept; then fixed.
    driver.get(warden.url("admin/rules"))
    driver.find_element(By.ID, "f-name").send_keys(f"No robots {tag}")
    condition = driver.find_element(By.ID, "f-condition")
    condition.send_keys('event.client.name = "robot"')
    driver.find_element(By.ID, "f-deny_reason").send_keys("Robots may not sign in")
    press("Add the rule")
    error = wait.until(ec.visibility_of_element_located((By.ID, "f-condition-error"))).text
    assert error == "expected '==' at position 19", error
    condition = driver.find_element(By.ID, "f-condition")
    assert condition.get_attribute("value") == 'event.client.name = "robot"'
    assert condition.get_attribute("aria-invalid") == "true"
    condition.clear()
    condition.send_keys('event.client.name == "robot"')
    press("Add the rule")
    notice("The rule was added")
    rule_page = driver.find_element(By.LINK_TEXT, f"No robots {tag}").get_attribute("href")
    return [("api", api_page), ("application", app_page), ("connection", connection_page), ("user", user_page),
            ("rule", rule_page)]


def test_an_admin_walks_every_console_page_by_browser(browser, warden: Warden, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec

    admin = create_user(warden, name="Ada Admin")
    make_admin(warden, admin)
    app = ciba_app(warden)
    _, form = start_request(warden, app)
    wait = page_wait(browser)

    browser.get(warden.url("admin/"))
    wait.until(ec.visibility_of_element_located((By.NAME, "username"))).send_keys(admin.email)
    browser.find_element(By.NAME, "password").send_keys(admin.password + Keys.ENTER)
    wait.until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Overview"))

    set_size(browser, DESKTOP)
    details = manage_by_browser(browser, warden, wait)
    for size in (DESKTOP, PHONE):
        set_size(browser, size)
        for name, address in PAGES + details:
            browser.get(address if address.startswith("http") else warden.url(address))
            wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1")))
            check_page(browser, name, size, tmp_path)

    # The logs filter, by keyboard: type a code, Enter submits the form.
    browser.get(warden.url("admin/logs"))
    browser.find_element(By.ID, "type").send_keys("s" + Keys.ENTER)
    wait.until(ec.url_contains("type=s"))
    types = {cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "tbody td code")}
    assert types == {"s"}, types

    # Cancel the pending request from its row, then rotate the keys.
    browser.get(warden.url("admin/ciba"))
    row = browser.find_element(By.XPATH, f"//tr[td[contains(., '{form['binding_message']}')]]")
    row.find_element(By.TAG_NAME, "button").click()
    wait.until(ec.text_to_be_present_in_element((By.CLASS_NAME, "notice"), "cancelled"))
    before = warden.jwks_kids()
    browser.get(warden.url("admin/keys"))
    browser.find_element(By.XPATH, "//button[normalize-space()='Rotate keys']").click()
    wait.until(ec.text_to_be_present_in_element((By.CLASS_NAME, "notice"), "New current keys"))
    assert warden.jwks_kids() > before

    # Sign out: the hosted login asks again.
    browser.find_element(By.XPATH, "//button[normalize-space()='Sign out']").click()
    wait.until(ec.visibility_of_element_located((By.NAME, "password")))
