import Foundation
import Geo

/// Small helpers shared by the HTML pages (no scripts, no external files).
enum HTML {
    static func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }
    static func pct(_ v: Double?) -> String { v.map { String(format: "%.1f%%", $0 * 100) } ?? "-" }
    static func num(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "-" }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
        table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
        td:first-child,th:first-child{text-align:left}td.l,th.l{text-align:left}svg{border:1px solid #ddd;background:#fbfbf8}
        .legend span{margin-right:14px}.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-right:4px}
        .pick{margin:6px 0}.pick label{display:inline-block;border:1px solid #bbb;border-radius:4px;padding:2px 8px;margin:0 4px 4px 0;cursor:pointer}
        input[name=pick]{position:absolute;opacity:0}.layer{display:none}
        ol.points{columns:3;font-size:13px;margin:4px 0 12px}
        .ok{color:#276749}.late{color:#b7791f}.miss{color:#c53030}
        """

    /// CSS that shows layer `i` while radio `pick-i` is checked (the radios precede the layered blocks).
    static func layerRules(_ count: Int) -> String {
        (0..<count).map { i in
            "#pick-\(i):checked ~ div .layer-\(i){display:inline} #pick-\(i):checked ~ div div.layer-\(i){display:block} "
                + "#pick-\(i):checked ~ .pick label[for=pick-\(i)]{background:#2b6cb0;color:#fff;border-color:#2b6cb0}"
        }.joined(separator: "\n")
    }
}

/// Equirectangular projection of a trace's bounding box onto the map.
struct MapProjection {
    static let width = 900.0, height = 560.0, pad = 20.0
    var minLat: Double, minLon: Double, kx: Double, scale: Double

    init(_ points: [(Double, Double)]) {
        var minLat = 90.0
        var maxLat = -90.0
        var minLon = 180.0
        var maxLon = -180.0
        for (lat, lon) in points {
            minLat = min(minLat, lat)
            maxLat = max(maxLat, lat)
            minLon = min(minLon, lon)
            maxLon = max(maxLon, lon)
        }
        if minLat > maxLat {
            minLat = 0
            maxLat = 1
            minLon = 0
            maxLon = 1
        }
        kx = cos((minLat + maxLat) / 2 * .pi / 180)
        let spanX = max((maxLon - minLon) * kx, 1e-4)
        let spanY = max(maxLat - minLat, 1e-4)
        scale = min((Self.width - 2 * Self.pad) / spanX, (Self.height - 2 * Self.pad) / spanY)
        self.minLat = minLat
        self.minLon = minLon
    }

    func x(_ lon: Double) -> Double { Self.pad + (lon - minLon) * kx * scale }
    func y(_ lat: Double) -> Double { Self.height - Self.pad - (lat - minLat) * scale }
    /// Pixels per metre.
    var perMeter: Double { scale / Sphere.metersPerDegree }
}
