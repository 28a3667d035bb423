extension QRCode {
    /// The light area around the symbol, in modules: four, as ISO/IEC 18004:2015 §6.3.8 requires.
    public static let quietZone = 4

    /// A standalone SVG image of the symbol, scalable and suitable for inline use in an HTML page.
    ///
    /// The `viewBox` is in modules and includes a 4-module quiet zone (ISO/IEC 18004:2015 §6.3.8); `width` and
    /// `height` are `moduleSize` pixels per module. A white `<rect>` fills the background (so the code stays
    /// scannable on a dark page) and a single black `<path>` draws the dark modules as unit-height rectangles — each
    /// horizontal run of dark modules in a row, i.e. a union of unit squares — with `shape-rendering="crispEdges"`.
    /// The image has `role="img"`, an `aria-label` and a `<title>`, all set to `title` (XML-escaped).
    public func svg(moduleSize: Int = 4, title: String) -> String {
        let extent = size + 2 * Self.quietZone
        let pixels = extent * max(1, moduleSize)
        let label = MarkupText.escaped(title)
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size && self[row, column] { column += 1 }
                let run = column - start
                path += "M\(start + Self.quietZone) \(row + Self.quietZone)h\(run)v1h-\(run)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(extent) \(extent)" role="img" aria-label="\(label)" shape-rendering="crispEdges">\
            <title>\(label)</title>\
            <rect width="\(extent)" height="\(extent)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/>\
            </svg>
            """
    }
}
