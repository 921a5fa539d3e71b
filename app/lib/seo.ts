import type { MetaDescriptor } from "react-router";
import { activeLocale } from "~/i18n";
import { INTL_LOCALES, LOCALES, type Locale, localePath } from "~/i18n/locales";

/**
 * A `meta` entry that renders one JSON-LD script. React Router HTML-escapes its
 * content, so a title containing "</script>" cannot break out (tested in e2e).
 */
export function jsonLdMeta(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": data };
}

export type PageMetaInput = {
  title: string;
  description: string;
  siteName: string;
  siteUrl: string;
  /** Path (with query if it matters) of the canonical page, e.g. "/browse". */
  path: string;
  image?: string | null;
  type?: "website" | "article";
  noindex?: boolean;
  /** The page's language (default: the request's, or the page's in the browser): its canonical URL is in it. */
  locale?: Locale;
};

/** The same page in every language, and x-default (English, the spec's URLs), for search engines. */
export function languageAlternates(siteUrl: string, path: string): MetaDescriptor[] {
  return [
    ...LOCALES.map((locale) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: locale,
      href: `${siteUrl}${localePath(locale, path)}`,
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: `${siteUrl}${path}` },
  ];
}

/** Title, description, canonical link, Open Graph and Twitter tags for a page. */
export function pageMeta(input: PageMetaInput): MetaDescriptor[] {
  const locale = input.locale ?? activeLocale();
  const url = `${input.siteUrl}${localePath(locale, input.path)}`;
  const image = input.image ? (input.image.startsWith("http") ? input.image : `${input.siteUrl}${input.image}`) : null;
  const tags: MetaDescriptor[] = [
    { title: input.title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    ...(input.noindex ? [] : languageAlternates(input.siteUrl, input.path)),
    { property: "og:site_name", content: input.siteName },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: INTL_LOCALES[locale].replace("-", "_") },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
  ];
  if (image) {
    tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  }
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** BreadcrumbList structured data from [name, path] pairs. */
export function breadcrumbJsonLd(siteUrl: string, crumbs: { name: string; path: string }[]): Record<string, unknown> {
  const locale = activeLocale();
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((c, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: c.name,
      item: `${siteUrl}${localePath(locale, c.path)}`,
    })),
  };
}

/** WebSite with a SearchAction using the site-search template (/browse?q=...). */
export function websiteJsonLd(siteUrl: string, siteName: string): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "WebSite",
    name: siteName,
    url: `${siteUrl}/`,
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: `${siteUrl}/browse?q={search_term_string}` },
      "query-input": "required name=search_term_string",
    },
  };
}
