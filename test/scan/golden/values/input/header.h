// By-value scalars and structs, references, typedefs and default arguments.
#pragma once

typedef float real_t;
typedef unsigned int count_t;

struct Point {
  float x;
  float y;
};

enum Mode { kFast, kExact };

void translate(struct Point *points, count_t count, struct Point delta, enum Mode mode);

void smooth(real_t *data, int len, real_t weight = 0.5f, int passes = 1);

void nearest(const Point &query, const Point *points, int n, int &index);
