"""The pure layout layer: measuring and breaking text, fitting it to a type scale, sharing
width between columns, placing a bar chart's segments and labels (`bars`). No rendering
library and no I/O: font bytes come in as a `Face`."""
