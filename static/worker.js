// Starts a worker of the playground (the simulation, or a sweep's runs) on the page's own
// wasm: the page sends the module it compiled and its loader's address, this imports the
// loader and instantiates the same code, whose start function sees it runs in a worker
// and listens to the page (src/ui/simulation.rs). No second download, no second compile.
self.onmessage = async (event) => {
  self.onmessage = null;
  const { module, glue } = event.data;
  const bindings = await import(glue);
  // Kept for the benchmark, which reads the worker's memory.
  self.__wasm = await bindings.default({ module_or_path: module });
};
