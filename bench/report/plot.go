package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gitops-fleet/pulumi-fleet/bench/engine"
)

var colors = map[engine.Impl]color.Color{
	engine.Fleet: color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	engine.Floor: color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff},
	engine.Peer:  color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
}

// writePlot draws wall time against cluster count, a line per program: up solid, preview dashed.
func writePlot(path string, rows []Row) error {
	p := plot.New()
	p.Title.Text = "pulumi-fleet: wall time against fleet size (offline cloud)"
	p.X.Label.Text = "clusters"
	p.Y.Label.Text = "seconds"
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	for _, impl := range engine.Impls {
		for _, op := range []engine.Op{engine.Up, engine.Preview} {
			var pts plotter.XYs
			for _, r := range rows {
				if r.Impl == impl && r.Op == op {
					pts = append(pts, plotter.XY{X: float64(r.Size), Y: r.Seconds})
				}
			}
			if len(pts) == 0 {
				continue
			}
			line, points, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			line.Color, points.Color = colors[impl], colors[impl]
			line.Width = vg.Points(1.5)
			points.Shape = draw.CircleGlyph{}
			if op == engine.Preview {
				line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				points.Shape = draw.TriangleGlyph{}
			}
			p.Add(line, points)
			p.Legend.Add(string(impl)+" "+string(op), line, points)
		}
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}
