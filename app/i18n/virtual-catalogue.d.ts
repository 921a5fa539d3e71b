declare module "virtual:catalogue/*" {}
