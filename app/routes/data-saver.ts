import { redirect } from "react-router";
import { switchDataSaver } from "~/security/data-saver.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/data-saver";

/** Nothing to show: the switch is a form in the footer. */
export function loader() {
  return redirect("/");
}

/**
 * The footer's data saver switch (ADR 090): a plain form post, with or without
 * JavaScript, that remembers the choice and sends the reader back to the page.
 */
export function action({ request, context }: Route.ActionArgs) {
  return switchDataSaver(request, context.get(requestContext).env);
}
