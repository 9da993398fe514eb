package dev.loadprof.report.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A minimal Chrome DevTools Protocol client over Java's own WebSocket: numbered calls answered
 * by id, and events handed to listeners (with the flat session id they belong to).
 */
public final class Cdp implements WebSocket.Listener {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_S = 30;

  private final AtomicInteger nextId = new AtomicInteger(1);
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final List<Consumer<JsonNode>> listeners = new CopyOnWriteArrayList<>();
  private final StringBuilder partial = new StringBuilder();
  private WebSocket socket;

  static Cdp connect(URI uri) throws IOException {
    Cdp cdp = new Cdp();
    try {
      cdp.socket = HttpClient.newHttpClient().newWebSocketBuilder()
          .buildAsync(uri, cdp).get(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IOException("cannot connect to chromium at " + uri, e);
    }
    return cdp;
  }

  static ObjectNode params(Object... keyValues) {
    ObjectNode o = JSON.createObjectNode();
    for (int i = 0; i < keyValues.length; i += 2) {
      o.set((String) keyValues[i], JSON.valueToTree(keyValues[i + 1]));
    }
    return o;
  }

  /** Sends a command (to a session, or to the browser when session is null); its result. */
  JsonNode call(String session, String method, ObjectNode params) throws IOException {
    int id = nextId.getAndIncrement();
    ObjectNode msg = JSON.createObjectNode();
    msg.put("id", id);
    msg.put("method", method);
    msg.set("params", params == null ? JSON.createObjectNode() : params);
    if (session != null) {
      msg.put("sessionId", session);
    }
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    try {
      socket.sendText(msg.toString(), true).get(TIMEOUT_S, TimeUnit.SECONDS);
      JsonNode reply = answer.get(TIMEOUT_S, TimeUnit.SECONDS);
      if (reply.has("error")) {
        throw new IOException(method + " failed: " + reply.get("error"));
      }
      return reply.path("result");
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IOException(method + " got no answer", e);
    } finally {
      pending.remove(id);
    }
  }

  void onEvent(Consumer<JsonNode> listener) {
    listeners.add(listener);
  }

  @Override
  public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      String text = partial.toString();
      partial.setLength(0);
      try {
        JsonNode msg = JSON.readTree(text);
        if (msg.has("id")) {
          CompletableFuture<JsonNode> f = pending.get(msg.get("id").asInt());
          if (f != null) {
            f.complete(msg);
          }
        } else {
          listeners.forEach(l -> l.accept(msg));
        }
      } catch (IOException e) {
        throw new IllegalStateException("bad DevTools message: " + text, e);
      }
    }
    ws.request(1);
    return null;
  }

  void close() {
    if (socket != null) {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    }
  }
}
