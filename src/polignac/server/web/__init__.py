"""The HTTP face: the app factory and its middleware (``app``), what the routes
share (``http``) and every route, one module per page or API (``*_routes``).

The top room: it may import every other room; none imports it.
"""
