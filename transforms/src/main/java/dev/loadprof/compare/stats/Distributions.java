package dev.loadprof.compare.stats;

/**
 * The normal and Student t distributions, enough for p-values and intervals: the CDFs from
 * erfc and the regularized incomplete beta function, quantiles by bisection on the CDF.
 */
public final class Distributions {
  private Distributions() {}

  /** P(Z <= z) for a standard normal Z. */
  public static double normalCdf(double z) {
    return 0.5 * erfc(-z / Math.sqrt(2));
  }

  /** The z with P(Z <= z) = p, 0 < p < 1. */
  public static double normalQuantile(double p) {
    return bisect(z -> normalCdf(z), p, -40, 40);
  }

  /** P(T <= t) for Student's t with df degrees of freedom. */
  public static double studentTCdf(double t, double df) {
    if (Double.isInfinite(t)) {
      return t > 0 ? 1 : 0;
    }
    double tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
    return t > 0 ? 1 - tail : tail;
  }

  /** The t with P(T <= t) = p for Student's t with df degrees of freedom. */
  public static double studentTQuantile(double p, double df) {
    return bisect(t -> studentTCdf(t, df), p, -1e6, 1e6);
  }

  /** Complementary error function, fractional error below 1.2e-7 (Chebyshev fit). */
  static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196
        + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398
        + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
  }

  /** I_x(a, b), by the continued fraction (modified Lentz), using its symmetry for speed. */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x)
        + b * Math.log(1 - x));
    if (x < (a + 1) / (a + b + 2)) {
      return front * betaFraction(x, a, b) / a;
    }
    return 1 - front * betaFraction(1 - x, b, a) / b;
  }

  private static double betaFraction(double x, double a, double b) {
    double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = Math.abs(d) < tiny ? tiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 500; m++) {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-15) {
        break;
      }
    }
    return h;
  }

  /** ln Gamma(x) for x > 0 (Lanczos, g = 7, 9 terms). */
  static double lnGamma(double x) {
    double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
    }
    x -= 1;
    double sum = c[0];
    double t = x + 7.5;
    for (int i = 1; i < 9; i++) {
      sum += c[i] / (x + i);
    }
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
  }

  private static double bisect(java.util.function.DoubleUnaryOperator cdf, double p, double lo,
      double hi) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("probability must be in (0, 1), got " + p);
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo)); i++) {
      double mid = (lo + hi) / 2;
      if (cdf.applyAsDouble(mid) < p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }
}
