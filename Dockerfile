# Image for the api and worker services of compose.yaml.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev
USER node
EXPOSE 8000 8001
CMD ["node", "dist/api/main.js"]
