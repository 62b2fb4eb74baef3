# Image for the api and worker services of compose.yaml.
FROM node:20-bookworm-slim
# The PNG history charts draw their text with a system font (sharp's SVG renderer asks fontconfig).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev
USER node
EXPOSE 8000 8001
CMD ["node", "dist/api/main.js"]
