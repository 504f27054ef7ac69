import { DEMO, expect, signIn, test, NO_FORM } from "./fixtures";

test.describe("staff accounts", () => {
  test("an administrator finds the Staff page in the navigation, with a Deactivate form per other account", NO_FORM, async ({ page }) => {
    await signIn(page, DEMO.admin.email);
    await page.getByRole("link", { name: "Staff", exact: true }).filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/admin\/staff$/);
    await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
    const table = page.getByRole("table", { name: "Trainers and administrators" });
    await expect(table.getByRole("row", { name: /Sam Whitfield/ }).getByRole("button", { name: "Deactivate Sam Whitfield" })).toBeVisible();
    await expect(table.getByRole("row", { name: /Alex Morgan/ }).getByText("You")).toBeVisible();
  });
});
