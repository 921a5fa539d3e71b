import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Banner } from "~/components/ui/banner";
import { t } from "~/i18n";
import { LinkNotice } from "./link-notice";
import "virtual:catalogue/browse";

describe("link notice", () => {
  it("is the warning banner, element for element", () => {
    const text = "These values could not be used: property type.";
    expect(renderToStaticMarkup(<LinkNotice text={text} />)).toBe(
      renderToStaticMarkup(
        <Banner variant="warning" className="mb-4" data-testid="browse-notice" title={t("browse.notice.title")}>
          {text}
        </Banner>,
      ),
    );
  });
});
