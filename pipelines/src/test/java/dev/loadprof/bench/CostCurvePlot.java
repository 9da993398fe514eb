package dev.loadprof.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws the cost curve of bench/run.sh curve as a PNG: trace size against wall seconds and
 * against max RSS, log-log, one line per runner. CostCurvePlot MEDIANS.tsv OUT.png, where each
 * line of MEDIANS.tsv is "runner bytes wall_s rss_mb" (tab-separated).
 */
public final class CostCurvePlot {
  private static final int PANEL_W = 380;
  private static final int PANEL_H = 300;
  private static final int LEFT = 56;
  private static final int RIGHT = 12;
  private static final int TOP = 28;
  private static final int BOTTOM = 40;
  private static final Map<String, Color> COLORS = Map.of(
      "default", new Color(0x1f77b4), "flink", new Color(0xd62728), "direct", new Color(0x2ca02c));

  private record Point(double bytes, double wallS, double rssMb) {}

  public static void main(String[] args) throws Exception {
    Map<String, List<Point>> byRunner = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t");
      byRunner.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new Point(
          Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3])));
    }
    for (List<Point> points : byRunner.values()) {
      points.sort((a, b) -> Double.compare(a.bytes, b.bytes));
    }
    BufferedImage img = new BufferedImage(2 * PANEL_W, PANEL_H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
        RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, img.getWidth(), img.getHeight());
    panel(g, 0, byRunner, true, "wall time, s");
    panel(g, PANEL_W, byRunner, false, "max RSS, MB");
    g.dispose();
    ImageIO.write(img, "png", new File(args[1]));
  }

  /** One log-log panel at x offset {@code x0}: size (MB) against wall or RSS. */
  private static void panel(Graphics2D g, int x0, Map<String, List<Point>> byRunner,
      boolean wall, String title) {
    double minX = Double.MAX_VALUE;
    double maxX = 0;
    double minY = Double.MAX_VALUE;
    double maxY = 0;
    for (List<Point> points : byRunner.values()) {
      for (Point p : points) {
        double y = wall ? p.wallS : p.rssMb;
        minX = Math.min(minX, p.bytes / 1e6);
        maxX = Math.max(maxX, p.bytes / 1e6);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
    // Whole decades around the data, so the ticks are 1, 10, 100...
    double lx0 = Math.floor(Math.log10(minX));
    double lx1 = Math.ceil(Math.log10(maxX));
    double ly0 = Math.floor(Math.log10(minY));
    double ly1 = Math.max(Math.ceil(Math.log10(maxY)), ly0 + 1);
    int plotW = PANEL_W - LEFT - RIGHT;
    int plotH = PANEL_H - TOP - BOTTOM;
    Axis ax = new Axis(x0 + LEFT, TOP + plotH, plotW, plotH, lx0, lx1, ly0, ly1);

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (double d = lx0; d <= lx1; d++) {
      int px = ax.px(Math.pow(10, d));
      g.setColor(new Color(0xe0e0e0));
      g.drawLine(px, TOP, px, TOP + plotH);
      g.setColor(Color.DARK_GRAY);
      String text = label(Math.pow(10, d));
      int w = g.getFontMetrics().stringWidth(text);
      g.drawString(text, Math.min(px - w / 2, x0 + PANEL_W - w - 2), TOP + plotH + 14);
    }
    for (double d = ly0; d <= ly1; d++) {
      int py = ax.py(Math.pow(10, d));
      g.setColor(new Color(0xe0e0e0));
      g.drawLine(x0 + LEFT, py, x0 + LEFT + plotW, py);
      g.setColor(Color.DARK_GRAY);
      g.drawString(label(Math.pow(10, d)), x0 + 8, py + 4);
    }
    g.setColor(Color.BLACK);
    g.drawRect(x0 + LEFT, TOP, plotW, plotH);
    g.drawString("trace text, MB", x0 + LEFT + plotW / 2 - 35, TOP + plotH + 30);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
    g.drawString(title, x0 + LEFT, TOP - 10);

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    int legendY = TOP + 14;
    for (Map.Entry<String, List<Point>> e : byRunner.entrySet()) {
      g.setColor(COLORS.getOrDefault(e.getKey(), Color.GRAY));
      g.setStroke(new BasicStroke(2f));
      int prevX = -1;
      int prevY = -1;
      for (Point p : e.getValue()) {
        int px = ax.px(p.bytes / 1e6);
        int py = ax.py(wall ? p.wallS : p.rssMb);
        if (prevX >= 0) {
          g.drawLine(prevX, prevY, px, py);
        }
        g.fillOval(px - 3, py - 3, 7, 7);
        prevX = px;
        prevY = py;
      }
      g.drawLine(x0 + LEFT + 8, legendY - 4, x0 + LEFT + 26, legendY - 4);
      g.drawString(e.getKey(), x0 + LEFT + 30, legendY);
      legendY += 14;
    }
    g.setStroke(new BasicStroke(1f));
  }

  private static String label(double v) {
    return v >= 1 ? String.format("%.0f", v) : String.format("%.1f", v);
  }

  /** Log-scale mapping of one panel's plot area. */
  private record Axis(int left, int bottom, int width, int height, double lx0, double lx1,
      double ly0, double ly1) {
    int px(double v) {
      return left + (int) Math.round((Math.log10(v) - lx0) / (lx1 - lx0) * width);
    }

    int py(double v) {
      return bottom - (int) Math.round((Math.log10(v) - ly0) / (ly1 - ly0) * height);
    }
  }
}
