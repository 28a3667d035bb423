import Foundation
import WardenCore
import WardenWire

/// A chart of the console's overview (SPEC §14): hourly stacked bars of a few event series over the last 24
/// hours, drawn on the server as inline SVG (no script, no chart library), with a title and a description for
/// screen readers and a legend that states each series' total.
struct ActivityChart: Sendable {
    /// One stacked series: the event types it counts and its colour.
    struct Series: Sendable {
        var name: String
        var types: [LogEventType]
        var color: String
    }

    var title: String
    var series: [Series]

    /// The console's three charts.
    static let signIns = ActivityChart(
        title: "Sign-ins",
        series: [
            Series(name: "succeeded", types: [.loginSuccess], color: "#2f855a"),
            Series(name: "failed", types: [.loginFailure, .wrongPassword, .unknownUser], color: "#c05621"),
            Series(name: "locked", types: [.accountLocked], color: "#9b2c2c"),
        ])
    static let tokens = ActivityChart(
        title: "Tokens issued by grant",
        series: [
            Series(name: "authorization code", types: [.codeExchangeSucceeded], color: "#2b59c3"),
            Series(name: "client credentials", types: [.clientCredentialsSucceeded], color: "#6b46c1"),
            Series(name: "refresh token", types: [.refreshExchangeSucceeded], color: "#2c7a7b"),
            Series(name: "CIBA", types: [.cibaExchangeSucceeded], color: "#b7791f"),
        ])
    static let ciba = ActivityChart(
        title: "CIBA requests",
        series: [
            Series(name: "started", types: [.cibaStartSucceeded], color: "#4a5568"),
            Series(name: "approved", types: [.deviceAccepted], color: "#2f855a"),
            Series(name: "denied", types: [.deviceRejected], color: "#c05621"),
            Series(name: "redeemed", types: [.cibaExchangeSucceeded], color: "#2b59c3"),
        ])
    static let overview = [signIns, tokens, ciba]

    /// Every event type the charts count.
    static var allTypes: [LogEventType] {
        Array(Set(overview.flatMap { $0.series.flatMap(\.types) })).sorted { $0.rawValue < $1.rawValue }
    }

    /// What the page shows: the SVG and the legend lines.
    struct Rendered: Sendable {
        var title: String
        /// Trusted markup made here (every text in it escaped), inserted unescaped by the template.
        var svg: String
        var legend: [LegendLine]
        var total: Int
    }

    struct LegendLine: Sendable {
        var name: String
        var color: String
        var total: Int
    }

    static let width = 360.0
    static let height = 156.0
    private static let plotTop = 8.0
    private static let plotBottom = 134.0
    private static let plotLeft = 30.0

    /// The chart of `counts` for the 24 hours ending with the hour of `now`.
    func render(_ counts: [HourlyEventCount], now: Date) -> Rendered {
        let lastHour = floor(now.timeIntervalSince1970 / 3600)
        let hours = (0..<24).map { lastHour - 23 + Double($0) }
        var values = Array(repeating: Array(repeating: 0, count: series.count), count: 24)
        for count in counts {
            let index = Int(count.hour.timeIntervalSince1970 / 3600 - hours[0])
            guard (0..<24).contains(index) else { continue }
            for (s, line) in series.enumerated() where line.types.contains(count.type) {
                values[index][s] += count.count
            }
        }
        let totals = series.indices.map { s in values.reduce(0) { $0 + $1[s] } }
        let top = Self.niceMaximum(values.map { $0.reduce(0, +) }.max() ?? 0)
        let slot = (Self.width - Self.plotLeft) / 24
        let scale = (Self.plotBottom - Self.plotTop) / Double(top)
        let titleID = "chart-" + title.lowercased().filter(\.isLetter)
        var svg = """
            <svg viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" aria-labelledby="\(titleID)" \
            xmlns="http://www.w3.org/2000/svg"><title id="\(titleID)">\(MarkupText.escaped(description(totals)))</title>
            """
        for fraction in [0.0, 0.5, 1.0] {
            let y = Self.plotBottom - fraction * (Self.plotBottom - Self.plotTop)
            svg += "<line x1=\"\(Self.plotLeft)\" x2=\"\(Self.width)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"#d5dbe4\"/>"
            svg += "<text x=\"\(Self.plotLeft - 6)\" y=\"\(y + 4)\" text-anchor=\"end\" font-size=\"10\" "
            svg += "fill=\"#4a5568\">\(Int(Double(top) * fraction))</text>"
        }
        for (index, hour) in hours.enumerated() {
            var y = Self.plotBottom
            let x = Self.plotLeft + Double(index) * slot + slot * 0.15
            for (s, line) in series.enumerated() where values[index][s] > 0 {
                let height = Double(values[index][s]) * scale
                y -= height
                svg += "<rect x=\"\(Self.format(x))\" y=\"\(Self.format(y))\" width=\"\(Self.format(slot * 0.7))\" "
                svg += "height=\"\(Self.format(height))\" fill=\"\(line.color)\"/>"
            }
            if index % 6 == 0 || index == 23 {
                let label = Self.hourLabel(hour)
                svg += "<text x=\"\(Self.format(x + slot * 0.35))\" y=\"\(Self.plotBottom + 15)\" "
                svg += "text-anchor=\"middle\" font-size=\"10\" fill=\"#4a5568\">\(label)</text>"
            }
        }
        svg += "</svg>"
        let legend = series.indices.map {
            LegendLine(name: series[$0].name, color: series[$0].color, total: totals[$0])
        }
        return Rendered(title: title, svg: svg, legend: legend, total: totals.reduce(0, +))
    }

    /// The sentence a screen reader reads for the chart.
    private func description(_ totals: [Int]) -> String {
        let parts = series.indices.map { "\(totals[$0]) \(series[$0].name)" }
        return "\(title), last 24 hours by hour: " + parts.joined(separator: ", ")
    }

    /// The smallest of 1, 2, 4 × 10ⁿ at or above `value` (at least 4), so the axis and its middle line read in
    /// whole round numbers.
    static func niceMaximum(_ value: Int) -> Int {
        var magnitude = 1
        while true {
            for step in [1, 2, 4] where step * magnitude >= max(value, 4) { return step * magnitude }
            magnitude *= 10
        }
    }

    private static func hourLabel(_ hour: Double) -> String {
        let h = Int(hour.truncatingRemainder(dividingBy: 24))
        return (h < 10 ? "0" : "") + "\(h):00"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
