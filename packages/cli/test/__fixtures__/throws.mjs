throw new Error("this tools module cannot be loaded");
